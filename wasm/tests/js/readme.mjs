// Runs an example of wasm/README.md as written: the ```js block holding `marker`, its
// imports resolved to the built package (pkg/) and to wasm/'s node_modules, the names it
// leaves to the reader given by the test, and the names it defines handed back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const readme = new URL("../../README.md", import.meta.url);
const pkg = new URL("../../pkg/", import.meta.url);

export async function runReadmeExample(marker, given, wanted) {
  const blocks = [...readFileSync(readme, "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const found = blocks.filter((block) => block.includes(marker));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} examples with ${marker}`);
  const code = found[0].replace(/from "([^"]+)"/g, (_, specifier) => {
    if (specifier === "@compactor-rs/compactor") return `from "${new URL("node.js", pkg)}"`;
    if (specifier.startsWith("@compactor-rs/compactor/")) {
      return `from "${new URL(`${specifier.slice("@compactor-rs/compactor/".length)}.js`, pkg)}"`;
    }
    return `from "${import.meta.resolve(specifier)}"`;
  });
  const dir = mkdtempSync(join(tmpdir(), "compactor-readme-"));
  const file = join(dir, "example.mjs");
  globalThis.__compactorReadme = given;
  writeFileSync(
    file,
    `const { ${Object.keys(given).join(", ")} } = globalThis.__compactorReadme;\n${code}\nexport { ${wanted.join(", ")} };\n`,
  );
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
