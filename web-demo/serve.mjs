// A static file server for the demo, rooted at the repository so the page can load the
// built package (/wasm/pkg/) and the sample (/samples/sample.json). No dependencies.
//
// Usage: node web-demo/serve.mjs [PORT]   (else $PORT, else a free port; prints the URL)
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));

// Browsers refuse ES modules and streaming wasm compilation under any other type.
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** The file a URL path names under `root`, or null when it would leave it (or names a dotfile). */
function fileFor(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.split(/[\\/]/).some((part) => part.startsWith("."))) return null;
  const file = resolve(root, `.${decoded}`);
  return file === root || file.startsWith(root + sep) ? file : null;
}

const server = createServer(async (request, response) => {
  const send = (status, text, headers = {}) => {
    response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
    response.end(text);
  };
  if (request.method !== "GET" && request.method !== "HEAD") return send(405, "method not allowed\n", { allow: "GET, HEAD" });
  const { pathname } = new URL(request.url, "http://localhost");
  if (pathname === "/") return send(302, "", { location: "/web-demo/" });
  let file = fileFor(pathname);
  if (file === null) return send(403, "forbidden\n");
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith("/")) return send(301, "", { location: `${pathname}/` });
      file = resolve(file, "index.html");
      info = await stat(file);
    }
    response.writeHead(200, {
      "content-type": types[extname(file)] ?? "application/octet-stream",
      "content-length": info.size,
      // Rebuilt packages show up on reload.
      "cache-control": "no-store",
    });
    if (request.method === "HEAD") return response.end();
    createReadStream(file).pipe(response);
  } catch {
    send(404, "not found\n");
  }
});

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
server.listen(port, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/web-demo/`);
});
