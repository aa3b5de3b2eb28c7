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
  attributes?: { name: string }[];
}

/** The elements a dialog story shows are made by pi-extension-ui from the agent's request, not by the story. */
const DIALOGS = new Set(["pi-select", "pi-confirm", "pi-input", "pi-editor"]);

/**
 * The attributes of the element a story renders itself (the manifest's): their controls set them on it. A dialog
 * story's element is made by pi-extension-ui, out of the story's reach, so it has only the story's own controls.
 */
function attributesOf(module: StoryModule): string[] {
  if (DIALOGS.has(module.title)) return [];
  const declarations = (manifest as { modules: { declarations?: Declaration[] }[] }).modules.flatMap(
    (m) => m.declarations ?? [],
  );
  return declarations.find((d) => d.tagName === module.title)?.attributes?.map((a) => a.name) ?? [];
}

/** The values the element's attribute controls were given (untouched ones are undefined), on each copy in `host`. */
function applyAttributes(
  host: HTMLElement,
  tag: string,
  names: readonly string[],
  args: Record<string, unknown>,
): void {
  for (const element of host.querySelectorAll(tag)) {
    for (const name of names) {
      const value = args[name];
      if (value === undefined || value === null || value === "") continue;
      if (value === false) element.removeAttribute(name);
      else element.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

/** The agent of the story rendered in each canvas (a docs page renders several at once). */
const agents = new WeakMap<HTMLElement, StoryAgent>();

export function metaOf(module: StoryModule): Meta {
  return {
    title: module.title,
    component: module.title.startsWith("pi-") ? module.title : undefined,
    tags: ["autodocs"],
    // On a docs page each story is in a frame of its own: a modal story's dialog stays in its frame.
    parameters: { docs: { description: { component: module.description }, story: { inline: false, height: "22rem" } } },
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
  const attributes = attributesOf(module).filter((name) => !(name in story.knobs));
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
    argTypes: argTypesOf(story.knobs),
    // The story's own controls, and the attributes of the element it renders (the docs page's table lists the
    // element's whole API, from the manifest).
    parameters: {
      docs: { description: { story: story.description ?? "" } },
      controls: { include: [...Object.keys(story.knobs), ...attributes] },
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
      applyAttributes(host, module.title, attributes, shownArgs);
      // The elements are in the page once Storybook has put the host in: then the agent speaks.
      requestAnimationFrame(() => {
        if (agents.get(canvas) === agent) void story.play?.(agent, args);
      });
      return host;
    },
  };
}
