/**
 * The workshop: every gallery story on Storybook (`bash scripts/demo.sh` starts it beside the demo). The stories are
 * the gallery's own modules (demo/src/gallery/stories), each turned into CSF by demo/storybook/adapter.ts; the
 * files in demo/storybook are written by scripts/storybook-stories.ts (`pnpm run stories`).
 */
import type { StorybookConfig } from "@storybook/web-components-vite";
import { mergeConfig } from "vite";
import { sourceResolve } from "../vite.config.js";

const config: StorybookConfig = {
  framework: { name: "@storybook/web-components-vite", options: {} },
  stories: ["../storybook/*.stories.ts"],
  addons: ["@storybook/addon-docs", "@storybook/addon-a11y"],
  // Nothing leaves the machine: no usage data, no version check.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // A workshop of this project's elements, not a Storybook to set up: no onboarding checklist in the sidebar or menu.
  features: { sidebarOnboardingChecklist: false, menuOnboardingChecklist: false },
  viteFinal: (vite) => mergeConfig(vite, { resolve: sourceResolve, build: { target: "es2022" } }),
};

export default config;
