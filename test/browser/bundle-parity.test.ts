/**
 * The single-file bundle renders what the sources render. Every gallery story is rendered twice, in two frames: once
 * with the elements from `packages/elements/dist/pi-elements.bundle.js` (built by `pnpm run build`: esbuild, template
 * minification, terser) and once from the TypeScript sources. Each element, attribute and text must match.
 */
import { expect } from "@open-wc/testing";

type StoryDom = { story: string; dom: string[] }[];

async function describeIn(elements: "bundle" | "src"): Promise<StoryDom> {
  const frame = document.createElement("iframe");
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  frame.src = `/test/fixtures/bundle/parity.html?elements=${elements}`;
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as Window & { describeStories?: () => Promise<StoryDom> };
  while (!win.describeStories) await new Promise((resolve) => setTimeout(resolve, 10));
  try {
    return await win.describeStories();
  } finally {
    frame.remove();
  }
}

describe("the single-file bundle", () => {
  it("renders every gallery story exactly as the sources do", async function () {
    // Each frame renders every story and lets it settle: about 5 s each on a quiet machine.
    this.timeout(60_000);
    const fromSources = await describeIn("src");
    const fromBundle = await describeIn("bundle");
    expect(fromSources.length).to.be.above(20);
    // The stories really rendered elements with shadow content, not empty hosts.
    expect(fromSources.every(({ dom }) => dom.some((line) => line.includes("part=")))).to.equal(true);
    expect(fromBundle.map(({ story }) => story)).to.deep.equal(fromSources.map(({ story }) => story));
    for (const [index, { story, dom }] of fromBundle.entries()) {
      expect(dom, story).to.deep.equal(fromSources[index]?.dom);
    }
  });
});
