/**
 * The single-file bundle is the sources. Every gallery story is rendered in the light and the dark theme, in two
 * frames: once with the elements from `packages/elements/dist/pi-elements.bundle.js` (built by `pnpm run build`)
 * and once from the TypeScript sources (test/fixtures/bundle/parity-scenario.ts). For each story pair:
 * - every custom element's style sheets are real, in both frames: no CSSResult whose text is not a non-empty string
 *   (a `css` template whose cooked string is `undefined` gives one), no adopted sheet without rules;
 * - the adopted CSS rules, as the browser serializes them, are the same;
 * - each element, attribute and text is the same;
 * - the computed style of every element and ::before / ::after, across shadow roots, is the same over a property list
 *   that covers layout, colour, font, list style, visibility and outline;
 * - screenshots of the two frames are pixel-identical but for rasterization noise (no channel more than
 *   RASTER_NOISE apart; no pixel beyond it). The stories run on a stopped clock, so a countdown or a running tool's elapsed time reads the same however long a frame took.
 *   The screenshots are taken by Playwright: this file runs in Chromium only (test/engines.mjs says why: both
 *   frames are in the same engine, so only the build can make them differ).
 * Stories are rendered one frame at a time, the rendering frame focused (so focus rings show the same in both) and on
 * top of the other at the same place in the viewport (a frame painted elsewhere differs by a few anti-aliased pixels).
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import type { ParityApi, StoryDescription, Theme } from "../fixtures/bundle/parity-api.js";

const THEMES: Theme[] = ["light", "dark"];
const VARIANTS = ["src", "bundle"] as const;
type Variant = (typeof VARIANTS)[number];

interface Pair {
  label: string;
  src: StoryDescription;
  bundle: StoryDescription;
  /** Pixels that differ between the two screenshots, and where; undefined where no screenshot could be taken. */
  screenshots?: { count: number; box: string };
}

async function openFrame(variant: Variant): Promise<{ frame: HTMLIFrameElement; api: ParityApi }> {
  const frame = document.createElement("iframe");
  frame.id = `parity-${variant}`;
  // Both frames at the same place in the viewport, so both are painted the same way; the one rendering is on top.
  frame.style.cssText = "position: fixed; top: 0; left: 0; width: 720px; height: 560px; border: 0; z-index: 0";
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  frame.src = `/test/fixtures/bundle/parity.html?elements=${variant}`;
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as Window;
  // The frame's module script may still be loading when its load event fires.
  await waitUntil(() => win.parity !== undefined, `the ${variant} frame's parity scenario`, {
    interval: 10,
    timeout: 30_000,
  });
  return { frame, api: win.parity! };
}

async function pixels(base64: string): Promise<ImageData> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("no 2d context");
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

/**
 * How far two pixels' channels may be apart and still count as the same: a rounded corner's anti-aliasing comes out
 * one level apart now and then when one frame painted a box on a layer of its own (seen: 10 pixels at the corners of
 * a code block, each channel 1 apart, in one run of three). A build that changes a colour, a size or a place changes
 * pixels by far more.
 */
const RASTER_NOISE = 2;

/**
 * How many pixels differ in a channel by more than RASTER_NOISE, and the box that holds them ("" when none, or when
 * the sizes differ).
 */
function compareImages(a: ImageData, b: ImageData): { count: number; box: string } {
  if (a.width !== b.width || a.height !== b.height) {
    return {
      count: Math.max(a.width * a.height, b.width * b.height),
      box: `${a.width}×${a.height} vs ${b.width}×${b.height}`,
    };
  }
  let count = 0;
  let [left, top, right, bottom] = [a.width, a.height, -1, -1];
  for (let i = 0; i < a.data.length; i += 4) {
    if (
      Math.abs(a.data[i]! - b.data[i]!) <= RASTER_NOISE &&
      Math.abs(a.data[i + 1]! - b.data[i + 1]!) <= RASTER_NOISE &&
      Math.abs(a.data[i + 2]! - b.data[i + 2]!) <= RASTER_NOISE &&
      Math.abs(a.data[i + 3]! - b.data[i + 3]!) <= RASTER_NOISE
    ) {
      continue;
    }
    count += 1;
    const x = (i / 4) % a.width;
    const y = Math.floor(i / 4 / a.width);
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
  }
  return { count, box: count ? `x ${left}–${right}, y ${top}–${bottom}` : "" };
}

/** The first `limit` lines that differ between two line lists, and how many differ in all. */
function lineDifferences(label: string, src: string[], bundle: string[], limit = 5): string[] {
  const out: string[] = [];
  const length = Math.max(src.length, bundle.length);
  let count = 0;
  for (let i = 0; i < length; i++) {
    if (src[i] === bundle[i]) continue;
    count += 1;
    if (out.length < limit) out.push(`${label}\n  sources: ${src[i]}\n  bundle:  ${bundle[i]}`);
  }
  if (count > limit) out.push(`${label}: ${count - limit} more differing lines`);
  return out;
}

/** For two computed-style lines of the same node: its path and only the properties that differ. */
function styleDifference(src = "", bundle = ""): string {
  const split = (line: string) => line.slice(line.indexOf(" { ") + 3, -2).split("; ");
  const ours = split(bundle);
  const differing = split(src).flatMap((declaration, i) =>
    declaration === ours[i] ? [] : [`${declaration} (bundle: ${ours[i]})`],
  );
  return `${src.slice(0, src.indexOf(" { "))}: ${differing.join(", ")}`;
}

describe("the single-file bundle", () => {
  const pairs: Pair[] = [];
  let screenshotsUnsupported: string | undefined;

  before(async function () {
    // 2 themes × every story × 2 frames, each rendered, settled, described and photographed.
    this.timeout(300_000);
    const frames = { src: await openFrame("src"), bundle: await openFrame("bundle") };
    const names = frames.src.api.stories();
    expect(frames.bundle.api.stories()).to.deep.equal(names);
    for (const theme of THEMES) {
      for (const [index, name] of names.entries()) {
        const described = {} as Record<Variant, StoryDescription>;
        const shots = {} as Record<Variant, string | undefined>;
        for (const variant of VARIANTS) {
          const { frame, api } = frames[variant];
          frames[variant === "src" ? "bundle" : "src"].frame.style.zIndex = "0";
          frame.style.zIndex = "1";
          frame.contentWindow?.focus();
          described[variant] = await api.render(index, theme);
          const shot = await executeServerCommand<{ png?: string; unsupported?: string }, unknown>("screenshot-png", {
            selector: `#${frame.id}`,
          });
          screenshotsUnsupported = shot?.unsupported;
          shots[variant] = shot?.png;
          api.clear();
        }
        const pair: Pair = { label: `${name} (${theme})`, src: described.src, bundle: described.bundle };
        if (shots.src && shots.bundle) {
          pair.screenshots = compareImages(await pixels(shots.src), await pixels(shots.bundle));
        }
        pairs.push(pair);
      }
    }
    frames.src.frame.remove();
    frames.bundle.frame.remove();
  });

  it("renders every gallery story in both themes, with shadow content", () => {
    expect(pairs.length).to.be.above(40);
    const empty = pairs.filter(
      ({ src, bundle }) => ![src, bundle].every(({ dom }) => dom.some((l) => l.includes("part="))),
    );
    expect(empty.map(({ label }) => label)).to.deep.equal([]);
  });

  it("gives every element real style sheets, from the bundle and from the sources", () => {
    const broken = pairs.flatMap(({ label, src, bundle }) => [
      ...src.brokenSheets.map((problem) => `${label}, sources: ${problem}`),
      ...bundle.brokenSheets.map((problem) => `${label}, bundle: ${problem}`),
    ]);
    expect(broken).to.deep.equal([]);
  });

  it("adopts the same CSS rules as the sources", () => {
    const differences = pairs.flatMap(({ label, src, bundle }) => lineDifferences(label, src.sheets, bundle.sheets));
    expect(differences).to.deep.equal([]);
  });

  it("renders the same elements, attributes and texts as the sources", () => {
    const differences = pairs.flatMap(({ label, src, bundle }) => lineDifferences(label, src.dom, bundle.dom));
    expect(differences).to.deep.equal([]);
  });

  it("gives every rendered node the same computed style as the sources", () => {
    const differences: string[] = [];
    for (const { label, src, bundle } of pairs) {
      if (src.styles.length !== bundle.styles.length) {
        differences.push(
          `${label}: ${src.styles.length} styled nodes from the sources, ${bundle.styles.length} from the bundle`,
        );
        continue;
      }
      const differing = src.styles.flatMap((line, i) => (line === bundle.styles[i] ? [] : [i]));
      for (const i of differing.slice(0, 3))
        differences.push(`${label}: ${styleDifference(src.styles[i], bundle.styles[i])}`);
      if (differing.length > 3) differences.push(`${label}: ${differing.length - 3} more nodes differ`);
    }
    expect(differences).to.deep.equal([]);
  });

  it("looks pixel-identical to the sources in screenshots", () => {
    // This file runs in Chromium (test/engines.mjs), where the screenshots are taken through Playwright.
    expect(screenshotsUnsupported, "screenshots could not be taken").to.equal(undefined);
    expect(pairs.every(({ screenshots }) => screenshots !== undefined)).to.equal(true);
    const differing = pairs.filter(({ screenshots }) => screenshots?.count !== 0);
    expect(
      differing.map(({ label, screenshots }) => `${label}: ${screenshots?.count} pixels differ (${screenshots?.box})`),
    ).to.deep.equal([]);
  });
});
