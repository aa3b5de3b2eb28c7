/**
 * The session-controls gallery story as a person sees it: the four controls together, answered as pi 1.6.0 and
 * 0.73.1 do, checked with axe and photographed in light and dark (test-results/screenshots/<engine>/).
 */
import "../../packages/elements/src/elements/model-picker/define.js";
import "../../packages/elements/src/elements/session-actions/define.js";
import "../../packages/elements/src/elements/session-stats/define.js";
import "../../packages/elements/src/elements/thinking-level/define.js";
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import { render } from "lit";
import { sessionControlsStories } from "../../demo/src/gallery/stories/session-controls.stories.js";
import { defaultArgs } from "../../demo/src/gallery/story.js";
import { StoryAgent } from "../../demo/src/gallery/story-agent.js";

const [footer] = sessionControlsStories.stories;

for (const pi of ["1.6.0", "0.73.1"]) {
  for (const scheme of ["light", "dark"]) {
    it(`the footer story on pi ${pi}, ${scheme}: pi's model, level and usage shown, axe clean`, async () => {
      const agent = new StoryAgent();
      const host = document.createElement("div");
      host.id = "shot";
      host.style.inlineSize = "40rem";
      host.style.setProperty("--pi-color-scheme", scheme);
      host.style.colorScheme = scheme;
      document.body.append(host);
      try {
        const args = { ...defaultArgs(footer!.knobs), pi };
        render(footer!.render({ session: agent.session, agent }, args), host);
        await footer!.play?.(agent, args);
        const picker = host.querySelector("pi-model-picker")!;
        const level = host.querySelector("pi-thinking-level")!;
        const stats = host.querySelector("pi-session-stats")!;
        await waitUntil(() => picker.model && level.levels.length === 5 && stats.stats, "pi's answers shown", {
          timeout: 10_000,
        });
        await Promise.all([picker.updateComplete, level.updateComplete, stats.updateComplete]);
        expect(picker.model!.id).to.equal("claude-sonnet-4-20250514");
        await expect(host).to.be.accessible();
        await executeServerCommand("screenshot", { name: `session-controls-story-${pi}-${scheme}`, selector: "#shot" });
      } finally {
        render(null, host);
        host.remove();
        agent.close();
      }
    });
  }
}
