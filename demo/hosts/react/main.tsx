// pi-elements in React 19: properties and events bind to custom elements natively (no wrapper). `session` is an
// object, so React sets it as a property; `onpi-submit` listens for the custom event.
import "@pi-elements/elements/all.js";
import type {} from "@pi-elements/elements/frameworks/react";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { createRecordingAgent } from "../shared/recording-agent.js";

const agent = createRecordingAgent();

function App() {
  const [received, setReceived] = useState<readonly string[]>([]);
  const [standalone, setStandalone] = useState("");
  useEffect(() => {
    agent.onReceive(setReceived);
    agent.ask();
  }, []);
  return (
    <main>
      <h1>React 19</h1>
      <pi-extension-ui session={agent.session}></pi-extension-ui>
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
