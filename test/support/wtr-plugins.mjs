// Servers the browser tests need, started with the test runner and stopped with it. Each registers
// itself here; tests reach them through `executeServerCommand`.
export function testServerPlugins() {
  return [];
}
