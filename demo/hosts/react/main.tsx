// pi-elements in React 19: properties and events bind to custom elements natively (no wrapper). `session` is an
// object, so React sets it as a property; `onpi-submit` listens for the custom event.
import { shownDialog } from "@pi-elements/core";
import "@pi-elements/elements/all.js";
import type {} from "@pi-elements/elements/frameworks/react";
import { StrictMode, useEffect, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { createRecordingAgent } from "../shared/recording-agent.js";

const agent = createRecordingAgent();
const store = agent.session.ui;
const getShown = () => shownDialog(store.getSnapshot());

function App() {
  const [received, setReceived] = useState<readonly string[]>([]);
  const [standalone, setStandalone] = useState("");
  // The core names the dialog to show; a host on the store alone agrees with pi-extension-ui.
  const shown = useSyncExternalStore(store.subscribe, getShown);
  useEffect(() => {
    agent.onReceive(setReceived);
    agent.ask();
  }, []);
  return (
    <main>
      <h1>React 19</h1>
      <pi-extension-ui session={agent.session}></pi-extension-ui>
      <p>
        Shown by the core: <output id="core-shown">{shown?.request.title ?? ""}</output>
      </p>
      <button type="button" id="ask-timed" onClick={() => agent.askTimed()}>
        Ask a timed question
      </button>
      <h2>Sent to the agent</h2>
      <pre id="received">{received.join("\n")}</pre>
      <h2>Standalone element</h2>
      <pi-input
        heading="Your name"
        placeholder="type and press Enter"
        open
        onpi-submit={(event) => "value" in event.detail && setStandalone(event.detail.value)}
      ></pi-input>
      <p id="standalone">{standalone}</p>
    </main>
  );
}

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
