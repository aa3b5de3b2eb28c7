/**
 * A gallery story module as Storybook's CSF: the module's element is the component (its docs page and argTypes come
 * from custom-elements.json), each story's knobs are its args with controls, and each render gets a fresh
 * `StoryAgent` whose every received line (the exact JSON a real pi would get) goes to the actions panel as
 * "sent to the agent". Changing a control restarts the story, as in the gallery.
 */
import type { ArgTypes, Meta, StoryObj } from "@storybook/web-components-vite";
import { render } from "lit";
import { action } from "storybook/actions";
import manifest from "../../packages/elements/custom-elements.json" with { type: "json" };
import { inDocsStoryFrame } from "../.storybook/docs-frames.js";
import {
  type Args,
  defaultArgs,
  type Knob,
  type Knobs,
  readEscapes,
  type StoryModule,
  showEscapes,
} from "../src/gallery/story.js";
import { StoryAgent } from "../src/gallery/story-agent.js";

interface Declaration {
  tagName?: string;
  attributes?: { name: string; fieldName?: string; type?: { text?: string } }[];
  members?: {
    kind: string;
    name: string;
    privacy?: string;
    static?: boolean;
    readonly?: boolean;
    type?: { text?: string };
  }[];
}

/**
 * Properties that wire an element to its agent or its host (the session, a store, a clock, a dialog's request, a
 * tool card's call): the story sets those itself, a control could only break the story.
 */
const WIRING = /Session|Store|Clock|Request|ToolCallBlock|ToolExecution|Record</;

/** The elements a dialog story shows are made by pi-extension-ui from the agent's request, not by the story. */
const DIALOGS = new Set(["pi-select", "pi-confirm", "pi-input", "pi-editor"]);
/** The modules whose stories open dialogs. */
const FRAMED = new Set([...DIALOGS, "pi-extension-ui"]);
/** The modules whose stories move the focus as they play: to a dialog, or into pi-prompt's field. */
const TAKE_FOCUS = new Set([...FRAMED, "pi-prompt"]);

/**
 * A gallery description (plain text) as the Markdown a docs page renders it from: its characters Markdown would
 * read as syntax are escaped, so `agent_start` and `follow_up` keep their underscores.
 */
function asMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

/**
 * The attributes of the element a story renders itself (the manifest's): their controls set them on it. A dialog
 * story's element is made by pi-extension-ui, out of the story's reach, so it has only the story's own controls.
 */
function declarationOf(module: StoryModule): Declaration | undefined {
  if (DIALOGS.has(module.title)) return undefined;
  const declarations = (manifest as { modules: { declarations?: Declaration[] }[] }).modules.flatMap(
    (m) => m.declarations ?? [],
  );
  return declarations.find((d) => d.tagName === module.title);
}

/** One control of the element's API: its name and its type as the manifest writes it. */
interface Member {
  name: string;
  type: string;
}

function attributesOf(module: StoryModule): Member[] {
  return declarationOf(module)?.attributes?.map((a) => ({ name: a.name, type: a.type?.text ?? "string" })) ?? [];
}

/**
 * The element's own properties that have no attribute (its `strings`, pi-markdown's `text`, pi-status-bar's
 * `statuses`): public, writable, not wiring. Their values are set on the element as properties.
 */
function propertiesOf(module: StoryModule): Member[] {
  const declaration = declarationOf(module);
  const attributes = new Set(declaration?.attributes?.map((a) => a.fieldName ?? a.name));
  return (declaration?.members ?? [])
    .filter(
      (m) =>
        m.kind === "field" &&
        !m.static &&
        !m.readonly &&
        (m.privacy ?? "public") === "public" &&
        !attributes.has(m.name) &&
        !WIRING.test(m.type?.text ?? ""),
    )
    .map((m) => ({ name: m.name, type: m.type?.text ?? "object" }));
}

/**
 * The control a member's manifest type implies: a select for a union of string literals (`"light" | "dark"`), a
 * boolean, number or text field for those types, and a JSON editor for anything else (an object, a list). Storybook's
 * own inference from these type texts gives every non-primitive an object control whose values it cannot read
 * from the address (`&args=strings.jumpToLatest:Newest`), so the type is given here in its terms.
 */
function controlOf(member: Member, attribute: boolean): ArgTypes[string] {
  const parts = member.type
    .split("|")
    .map((part) => part.trim())
    .filter((part) => part !== "undefined");
  const literals = parts.map((part) => /^"([^"]*)"$/.exec(part)?.[1]);
  if (parts.length > 0 && literals.every((literal) => literal !== undefined)) {
    return {
      control: { type: "select" },
      options: literals as string[],
      type: { name: "enum", value: literals as string[] },
    };
  }
  const [only] = parts;
  if (parts.length === 1 && (only === "boolean" || only === "number" || only === "string")) {
    return { control: { type: only === "string" ? "text" : only }, type: { name: only } };
  }
  // An attribute's value is text whatever its type's name (EditorSubmitKey, WidgetPlacement).
  if (attribute) return { control: { type: "text" }, type: { name: "string" } };
  return { control: { type: "object" }, type: { name: "object", value: {} } };
}

/**
 * The values the element's attribute and property controls were given (untouched ones are undefined), on each copy
 * of the element in `host`: an attribute set, or removed for false; a property assigned.
 */
function applyControls(
  host: HTMLElement,
  tag: string,
  controls: { attributes: readonly string[]; properties: readonly string[] },
  args: Record<string, unknown>,
): void {
  for (const element of host.querySelectorAll(tag)) {
    for (const name of controls.attributes) {
      const value = args[name];
      if (value === undefined || value === null || value === "") continue;
      if (value === false) element.removeAttribute(name);
      else element.setAttribute(name, value === true ? "" : String(value));
    }
    for (const name of controls.properties) {
      if (args[name] !== undefined) (element as unknown as Record<string, unknown>)[name] = args[name];
    }
  }
}

/** Every element under `root`, across open shadow roots. */
function deepElements(root: Element | ShadowRoot): Element[] {
  return [...root.querySelectorAll("*")].flatMap((element) => [
    element,
    ...(element.shadowRoot ? deepElements(element.shadowRoot) : []),
  ]);
}

/** Resolves once no element under `host` has an update to render, a frame later (a dialog focuses after its render). */
async function rendered(host: HTMLElement): Promise<void> {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  do await frame();
  while (deepElements(host).some((element) => (element as { isUpdatePending?: boolean }).isUpdatePending));
  await frame();
}

/** The agent of the story rendered in each canvas (a docs page renders several at once). */
const agents = new WeakMap<HTMLElement, StoryAgent>();

/**
 * "Show code" on a docs page: the markup the story put in the page, as a page would write it. Storybook's source
 * decorator captures the story's DOM with the toolbar's stage around it; this keeps what is inside the story's own
 * host, one element a line, indented by nesting (the elements' shadow trees are theirs, not the page's markup).
 */
export function sourceOf(code: string): string {
  const template = document.createElement("template");
  template.innerHTML = code;
  const host = template.content.querySelector(".stage > div") ?? template.content;
  const lines: string[] = [];
  const escapeText = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const write = (node: Node, depth: number) => {
    const indent = "  ".repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent?.trim();
      if (text) lines.push(indent + escapeText(text));
      return;
    }
    if (!(node instanceof Element)) return;
    const tag = node.localName;
    const attributes = [...node.attributes].map((a) =>
      a.value === "" ? ` ${a.name}` : ` ${a.name}="${a.value.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`,
    );
    const open = `<${tag}${attributes.join("")}>`;
    const children = [...node.childNodes].filter((child) => child instanceof Element || child.textContent?.trim());
    if (children.length === 0) lines.push(`${indent}${open}</${tag}>`);
    else if (children.length === 1 && children[0]!.nodeType === Node.TEXT_NODE)
      lines.push(`${indent}${open}${escapeText(children[0]!.textContent!.trim())}</${tag}>`);
    else {
      lines.push(indent + open);
      for (const child of children) write(child, depth + 1);
      lines.push(`${indent}</${tag}>`);
    }
  };
  for (const child of host.childNodes) write(child, 0);
  return lines.join("\n");
}

export function metaOf(module: StoryModule): Meta {
  return {
    title: module.title,
    component: module.title.startsWith("pi-") ? module.title : undefined,
    tags: ["autodocs"],
    // On a docs page a dialog's stories are each in a frame of their own (a modal dialog stays in its frame, and
    // the open dialogs do not take the focus from one another), which follows the toolbar through
    // .storybook/docs-frames.ts. Every other story renders in the page.
    parameters: {
      docs: {
        description: { component: asMarkdown(module.description) },
        story: FRAMED.has(module.title) ? { inline: false, height: "22rem" } : { inline: true },
        source: { transform: sourceOf },
      },
    },
  };
}

function argTypesOf(knobs: Knobs): ArgTypes {
  const types: ArgTypes = {};
  for (const [key, knob] of Object.entries(knobs) as [string, Knob][]) {
    const control =
      knob.type === "boolean"
        ? { type: "boolean" as const }
        : knob.type === "number"
          ? { type: "number" as const, min: knob.min, max: knob.max, step: knob.step }
          : knob.type === "choice"
            ? { type: "select" as const }
            : { type: "text" as const };
    types[key] = {
      control,
      ...(knob.type === "choice" ? { options: [...knob.options] } : {}),
      description: knob.type === "text" && knob.ansi ? "ANSI escapes written as \\e" : undefined,
      table: { category: "story" },
    };
  }
  return types;
}

export function storyOf(module: StoryModule, index: number): StoryObj {
  const story = module.stories[index]!;
  const attributeMembers = attributesOf(module).filter((m) => !(m.name in story.knobs));
  const propertyMembers = propertiesOf(module).filter((m) => !(m.name in story.knobs));
  const attributes = attributeMembers.map((m) => m.name);
  const properties = propertyMembers.map((m) => m.name);
  const memberTypes: ArgTypes = Object.fromEntries([
    ...attributeMembers.map((m) => [m.name, controlOf(m, true)]),
    ...propertyMembers.map((m) => [m.name, controlOf(m, false)]),
  ]);
  const defaults = defaultArgs(story.knobs);
  // An ANSI knob shows ESC as \e in its text control, and reads it back.
  const shown = Object.fromEntries(
    Object.entries(defaults).map(([key, value]) => {
      const knob = story.knobs[key] as Knob;
      return [key, knob.type === "text" && knob.ansi ? showEscapes(String(value)) : value];
    }),
  );
  return {
    name: story.name,
    args: shown,
    argTypes: { ...memberTypes, ...argTypesOf(story.knobs) },
    // The story's own controls, and the attributes and properties of the element it renders (the docs page's table
    // lists the element's whole API, from the manifest).
    parameters: {
      docs: { description: { story: asMarkdown(story.description ?? "") } },
      controls: { include: [...Object.keys(story.knobs), ...attributes, ...properties] },
    },
    render: (shownArgs, context) => {
      const args = Object.fromEntries(
        Object.entries(shownArgs).map(([key, value]) => {
          const knob = story.knobs[key] as Knob | undefined;
          return [key, knob?.type === "text" && knob.ansi ? readEscapes(String(value)) : value];
        }),
      ) as Args<Knobs>;
      const canvas = context.canvasElement;
      agents.get(canvas)?.close();
      const agent = new StoryAgent();
      agents.set(canvas, agent);
      const sent = action("sent to the agent");
      agent.addEventListener("received", () => sent(agent.received.at(-1)?.line));
      const host = document.createElement("div");
      render(story.render({ session: agent.session, agent }, args), host);
      applyControls(host, module.title, { attributes, properties }, shownArgs);
      // On a docs page a story does not take the page's focus as it starts, nor scroll to itself (an opening
      // dialog, a select's first option, pi-prompt's field): the page would jump from where the reader is. The host
      // of a story that would is hidden until the story has played and its elements have rendered (what is not
      // rendered takes no focus and scrolls nothing); a click or Tab reaches it then, as anywhere.
      const held = TAKE_FOCUS.has(module.title) && (context.viewMode === "docs" || inDocsStoryFrame());
      host.hidden = held;
      // The elements are in the page once Storybook has put the host in: then the agent speaks.
      requestAnimationFrame(async () => {
        if (agents.get(canvas) !== agent) return;
        await story.play?.(agent, args);
        if (held) {
          await rendered(host);
          host.hidden = false;
        }
      });
      return host;
    },
  };
}
