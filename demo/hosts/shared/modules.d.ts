// Single-file components are compiled by their Vite plugins; to tsc they are opaque modules.
declare module "*.vue" {
  import type { DefineComponent } from "vue";

  const component: DefineComponent;
  export default component;
}
declare module "*.svelte" {
  import type { Component } from "svelte";

  const component: Component;
  export default component;
}
