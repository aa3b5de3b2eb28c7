/**
 * The demo app: a sidebar of stories (the gallery), the playground and the live page, with page-wide theme,
 * language and direction controls. Routes live in the hash: #/gallery/<module>/<story>, #/playground, #/live.
 */
// Every element (the extension UI's, the session controls, the conversation's), from source (vite.config.ts).
import "@pi-elements/elements/all.js";
import "./app/session-controls.js";
import "./gallery/story-view.js";
import "./playground/playground-page.js";
import "./live/live-page.js";
import { css, html, LitElement } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { storyModules } from "./gallery/stories/index.js";
import { bridgeUrlFromPage } from "./live/live-page.js";

type Route = { page: "gallery"; module: string; story: number } | { page: "playground" } | { page: "live" };

function parseRoute(hash: string): Route {
  const [page, module, story] = hash.replace(/^#\/?/, "").split("/");
  if (page === "playground") return { page };
  if (page === "live") return { page };
  const first = storyModules[0];
  return { page: "gallery", module: module ?? first?.id ?? "", story: Number(story ?? 0) || 0 };
}

export class DemoApp extends LitElement {
  static override properties = {
    route: { state: true },
    theme: { state: true },
    language: { state: true },
    direction: { state: true },
    menuOpen: { state: true },
  };
  declare route: Route;
  declare theme: "auto" | "light" | "dark";
  declare language: string;
  declare direction: "ltr" | "rtl";
  /** On a narrow screen the story list is behind a menu button. */
  declare menuOpen: boolean;

  constructor() {
    super();
    this.route = bridgeUrlFromPage() && !location.hash ? { page: "live" } : parseRoute(location.hash);
    this.theme = "auto";
    this.language = "en";
    this.direction = "ltr";
    this.menuOpen = false;
    addEventListener("hashchange", () => {
      this.route = parseRoute(location.hash);
      this.menuOpen = false;
    });
  }

  protected override updated(): void {
    // The live page fills the window below the header (its conversation is what scrolls), the gallery grows.
    this.toggleAttribute("data-live", this.route.page === "live");
    document.documentElement.style.colorScheme = this.theme === "auto" ? "light dark" : this.theme;
    document.documentElement.style.setProperty("--pi-color-scheme", this.theme === "auto" ? "light dark" : this.theme);
    // The whole page turns, as a right-to-left page would: the story list, the controls and the log too.
    document.documentElement.dir = this.direction;
  }

  #nav() {
    const route = this.route;
    const current = (match: boolean) => (match ? "page" : undefined);
    return html`<nav id="stories" aria-label="Stories" ?data-open=${this.menuOpen}>
      <h2>Gallery</h2>
      ${storyModules.map(
        (module) => html`<h3>${module.title}</h3>
          <ul>
            ${module.stories.map(
              (story, index) => html`<li><a href="#/gallery/${module.id}/${index}"
                aria-current=${current(route.page === "gallery" && route.module === module.id && route.story === index) ?? "false"}
              >${story.name}</a></li>`,
            )}
          </ul>`,
      )}
      <h2>Try it</h2>
      <ul>
        <li><a href="#/playground" aria-current=${current(route.page === "playground") ?? "false"}>Playground</a></li>
        <li><a href="#/live" aria-current=${current(route.page === "live") ?? "false"}>Live pi</a></li>
      </ul>
    </nav>`;
  }

  #page() {
    const route = this.route;
    if (route.page === "playground")
      return html`<demo-playground lang=${this.language} dir=${this.direction}></demo-playground>`;
    if (route.page === "live") return html`<demo-live lang=${this.language} dir=${this.direction}></demo-live>`;
    const module = storyModules.find((m) => m.id === route.module);
    const story = module?.stories[route.story];
    if (!module || !story) return html`<p>No such story.</p>`;
    // English prose on a right-to-left page: each line takes the direction of its own text, so its punctuation
    // stays at its end.
    return html`<header class="story-head"><h1 dir="auto">${module.title}: ${story.name}</h1>
        <p dir="auto">${story.description ?? module.description}</p></header>
      <demo-story-view .story=${story} theme=${this.theme} lang=${this.language} dir=${this.direction}></demo-story-view>`;
  }

  override render() {
    return html`
      <header class="top">
        <button type="button" class="skip" @click=${this.#skipToContent}>Skip to content</button>
        <a class="brand" href="#/">pi-elements</a>
        <button type="button" class="menu" aria-controls="stories" aria-expanded=${this.menuOpen ? "true" : "false"}
          @click=${() => {
            this.menuOpen = !this.menuOpen;
          }}>Stories</button>
        <label><span class="label-text">Theme</span> <select @change=${(e: Event) => {
          this.theme = (e.target as HTMLSelectElement).value as DemoApp["theme"];
        }}>
          <option value="auto">System</option><option value="light">Light</option><option value="dark">Dark</option>
        </select></label>
        <label><span class="label-text">Language</span> <select @change=${(e: Event) => {
          this.language = (e.target as HTMLSelectElement).value;
        }}>
          <option value="en">English</option><option value="ja">日本語</option><option value="zh-CN">简体中文</option>
        </select></label>
        <label><span class="label-text">Direction</span> <select @change=${(e: Event) => {
          this.direction = (e.target as HTMLSelectElement).value as "ltr" | "rtl";
        }}>
          <option value="ltr">Left to right</option><option value="rtl">Right to left</option>
        </select></label>
      </header>
      ${this.#nav()}
      <main id="main" tabindex="-1">${
        // Elements read the nearest lang and dir when they render, so a switch re-creates the page in the new
        // language (a story restarts; the live page reconnects and the bridge replays its state).
        keyed(`${this.language}|${this.direction}`, this.#page())
      }</main>
    `;
  }

  /** The skip link's target is in this shadow root, where no fragment link reaches: it is a button that moves focus. */
  #skipToContent(): void {
    this.renderRoot.querySelector<HTMLElement>("main")?.focus();
  }

  static override styles = css`
    :host { display: grid; grid-template-columns: 15rem minmax(0, 1fr); grid-template-rows: auto 1fr; min-height: 100vh; }
    .skip { position: absolute; inset-inline-start: 0.5rem; inset-block-start: -3rem; z-index: 10; padding: 0.4rem 0.8rem;
      font: inherit; border: 0; border-radius: 4px; background: light-dark(#1f2328, #e4e4e4); color: light-dark(#fff, #17171c); }
    .skip:focus { inset-block-start: 0.5rem; }
    .top { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: center; padding: 0.6rem 1rem;
      border-bottom: 1px solid var(--demo-border); font-size: 0.85rem; }
    .menu { display: none; font: inherit; }
    main:focus { outline: none; }
    .brand { font-weight: 700; font-size: 1rem; margin-inline-end: auto; color: inherit; text-decoration: none; }
    select { font: inherit; margin-inline-start: 0.3rem; }
    nav { padding: 1rem; border-inline-end: 1px solid var(--demo-border); overflow: auto; font-size: 0.9rem; }
    nav h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--demo-muted); margin: 1rem 0 0.4rem; }
    nav h3 { font-size: 0.85rem; margin: 0.6rem 0 0.2rem; font-family: ui-monospace, monospace; }
    nav ul { list-style: none; margin: 0; padding: 0; }
    nav a { display: block; padding: 0.2rem 0.5rem; border-radius: 4px; color: inherit; text-decoration: none; }
    nav a:hover { background: var(--demo-code-bg); }
    nav a[aria-current="page"] { background: var(--demo-selected); font-weight: 600; }
    main { padding: 1.25rem 1.5rem; min-width: 0; }
    /* The live page: the whole width for the conversation; the story list opens from the menu button, over it. */
    :host([data-live]) { block-size: 100dvh; min-height: 0; grid-template-columns: minmax(0, 1fr); }
    :host([data-live]) main { grid-row: 2; grid-column: 1; min-block-size: 0; overflow: auto; padding-block: 0.9rem; }
    :host([data-live]) .menu { display: inline-block; }
    :host([data-live]) nav { display: none; }
    :host([data-live]) nav[data-open] { display: block; grid-row: 2; grid-column: 1; z-index: 2; justify-self: start;
      inline-size: min(18rem, 100%); box-sizing: border-box; min-block-size: 0; background: var(--demo-bg);
      border-inline-end: 1px solid var(--demo-border); border-bottom: 1px solid var(--demo-border); }
    .story-head h1 { margin: 0 0 0.25rem; font-size: 1.3rem; }
    .story-head p { margin: 0 0 1rem; color: var(--demo-muted); }
    /* A phone: one column; the story list opens from the menu button, over the page. */
    @media (max-width: 48rem) {
      :host { grid-template-columns: minmax(0, 1fr); }
      .menu { display: inline-block; }
      nav { display: none; border-inline-end: 0; border-bottom: 1px solid var(--demo-border); }
      nav[data-open] { display: block; }
      main { padding: 1rem; }
      /* A phone: the live page is taller than the window; the page scrolls, its conversation keeps a height. */
      :host([data-live]) { block-size: auto; min-height: 100dvh; }
      :host([data-live]) main { overflow: visible; padding: 0.75rem; }
      .story-head h1 { font-size: 1.15rem; }
    }
    /* A narrow phone: the three controls' labels are for screen readers only, so the bar takes two rows, not three. */
    @media (max-width: 30rem) {
      .top { gap: 0.4rem 0.5rem; padding: 0.5rem 0.75rem; }
      .label-text { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%);
        white-space: nowrap; }
      select { margin-inline-start: 0; }
    }
  `;
}

customElements.define("demo-app", DemoApp);
