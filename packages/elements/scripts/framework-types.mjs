// Framework typings generated from custom-elements.json: React 19 JSX, Vue 3 GlobalComponents and Svelte 5
// SvelteHTMLElements, so `<pi-prompt .value onpi-send>` type-checks in each without a wrapper component.
// Properties are the elements' public writable fields; events are typed through GlobalEventHandlersEventMap,
// which each element's define module declares.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distDir, packageDir } from "./bundle.mjs";

/** `{ tag, className, properties, events }` for every custom element in the manifest. */
export function elementsFromManifest(manifest) {
  const elements = [];
  for (const mod of manifest.modules) {
    for (const declaration of mod.declarations ?? []) {
      if (!declaration.customElement || !declaration.tagName) continue;
      const properties = (declaration.members ?? [])
        .filter(
          (member) =>
            member.kind === "field" &&
            !member.static &&
            !member.readonly &&
            (member.privacy ?? "public") === "public" &&
            !member.name.startsWith("#"),
        )
        .map((member) => member.name);
      const events = (declaration.events ?? []).map((event) => event.name).filter(Boolean);
      elements.push({ tag: declaration.tagName, className: declaration.name, properties, events });
    }
  }
  return elements.sort((a, b) => a.tag.localeCompare(b.tag));
}

const header = `// Generated from custom-elements.json by scripts/framework-types.mjs. Do not edit.
import type * as Elements from "../index.js";
import type {} from "../all.js";
`;

const pick = (element) =>
  element.properties.length > 0
    ? `Partial<Pick<Elements.${element.className}, ${element.properties.map((p) => JSON.stringify(p)).join(" | ")}>>`
    : "{}";

/** `"onpi-send"?: (event: …) => void` entries; `key` names the prop for each event. */
const eventProps = (element, key) =>
  element.events.length > 0
    ? `{ ${element.events
        .map(
          (event) =>
            `${JSON.stringify(key(event))}?: (event: GlobalEventHandlersEventMap[${JSON.stringify(event)}]) => void`,
        )
        .join("; ")} }`
    : "{}";

const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
const vueHandler = (event) => `on${camel(event).replace(/^\w/, (c) => c.toUpperCase())}`;

export function reactTypes(elements) {
  const rows = elements.map(
    (e) =>
      `      ${JSON.stringify(e.tag)}: React.DetailedHTMLProps<React.HTMLAttributes<Elements.${e.className}>, Elements.${e.className}> &\n        ${pick(e)} &\n        ${eventProps(e, (event) => `on${event}`)};`,
  );
  return `${header}import type * as React from "react";

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
${rows.join("\n")}
    }
  }
}
`;
}

export function vueTypes(elements) {
  const rows = elements.map(
    (e) => `    ${JSON.stringify(e.tag)}: DefineComponent<${pick(e)} & ${eventProps(e, vueHandler)}>;`,
  );
  return `${header}import type { DefineComponent } from "vue";

declare module "vue" {
  interface GlobalComponents {
${rows.join("\n")}
  }
}
`;
}

export function svelteTypes(elements) {
  const rows = elements.map(
    (e) =>
      `    ${JSON.stringify(e.tag)}: HTMLAttributes<Elements.${e.className}> & ${pick(e)} & ${eventProps(e, (event) => `on${event}`)};`,
  );
  return `${header}import type { HTMLAttributes } from "svelte/elements";

declare module "svelte/elements" {
  interface SvelteHTMLElements {
${rows.join("\n")}
  }
}
`;
}

/** Writes dist/frameworks/{react,vue,svelte}.d.ts from the package's custom-elements.json. */
export function writeFrameworkTypes() {
  const manifest = JSON.parse(readFileSync(join(packageDir, "custom-elements.json"), "utf8"));
  const elements = elementsFromManifest(manifest);
  const dir = join(distDir, "frameworks");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "react.d.ts"), reactTypes(elements));
  writeFileSync(join(dir, "vue.d.ts"), vueTypes(elements));
  writeFileSync(join(dir, "svelte.d.ts"), svelteTypes(elements));
  return elements;
}
