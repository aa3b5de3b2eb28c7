import { expect, fixture, html } from "@open-wc/testing";
import { render } from "lit";
import { KeyedChildren } from "../src/controllers/keyed-children.js";

interface Item {
  key: string;
  text: string;
}

function setup() {
  const list = new KeyedChildren<Item>(
    "li",
    (item) => item.key,
    (element, item, index) => {
      element.dataset.key = item.key;
      render(html`<button>${item.text} #${index}</button>`, element);
    },
  );
  return list;
}

const items = (...keys: string[]) => keys.map((key) => ({ key, text: key.toUpperCase() }));
const texts = (ul: Element) => [...ul.children].map((li) => li.textContent);
const byKey = (ul: Element) => new Map([...ul.children].map((li) => [(li as HTMLElement).dataset.key, li]));

describe("KeyedChildren", () => {
  it("renders items in order with their content", async () => {
    const ul = await fixture<HTMLUListElement>(html`<ul></ul>`);
    setup().place(ul, items("a", "b", "c"));
    expect(texts(ul)).to.deep.equal(["A #0", "B #1", "C #2"]);
    expect([...ul.children].every((li) => li.localName === "li")).to.equal(true);
  });

  it("keeps each element while its key stays, through appends, inserts and removals", async () => {
    const ul = await fixture<HTMLUListElement>(html`<ul></ul>`);
    const list = setup();
    list.place(ul, items("a", "b", "c"));
    const before = byKey(ul);
    list.place(ul, items("b", "c", "d"));
    list.place(ul, items("b", "x", "c", "d"));
    list.place(ul, items("b", "d"));
    const after = byKey(ul);
    expect(texts(ul)).to.deep.equal(["B #0", "D #1"]);
    expect(after.get("b")).to.equal(before.get("b"));
    expect(before.get("a")?.isConnected).to.equal(false);
  });

  it("keeps focus in an element that stays while items before and after it come and go", async () => {
    const ul = await fixture<HTMLUListElement>(html`<ul></ul>`);
    const list = setup();
    list.place(ul, items("a", "b", "c"));
    const focused = byKey(ul).get("b")!.querySelector("button")!;
    focused.focus();
    const blurs: string[] = [];
    focused.addEventListener("blur", () => blurs.push("blur"));
    list.place(ul, items("b", "c"));
    list.place(ul, items("b", "c", "d"));
    list.place(ul, items("0", "b", "c", "d"));
    expect(document.activeElement).to.equal(focused);
    expect(blurs).to.deep.equal([]);
    expect(focused.textContent).to.equal("B #1");
  });

  it("follows a reorder and an emptied list", async () => {
    const ul = await fixture<HTMLUListElement>(html`<ul></ul>`);
    const list = setup();
    list.place(ul, items("a", "b", "c"));
    list.place(ul, items("c", "a", "b"));
    expect(texts(ul)).to.deep.equal(["C #0", "A #1", "B #2"]);
    list.place(ul, []);
    expect(ul.children.length).to.equal(0);
    list.place(ul, items("a"));
    expect(texts(ul)).to.deep.equal(["A #0"]);
  });

  it("moves its elements into a new parent (the list's container was re-created)", async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div><ul id="one"></ul><ul id="two"></ul></div>`);
    const [one, two] = [...wrapper.children];
    const list = setup();
    list.place(one!, items("a", "b"));
    const a = byKey(one!).get("a");
    list.place(two!, items("a", "b"));
    expect(one!.children.length).to.equal(0);
    expect(byKey(two!).get("a")).to.equal(a);
  });
});
