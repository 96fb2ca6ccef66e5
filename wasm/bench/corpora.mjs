// The inputs of the performance suite, built deterministically into one folder so the
// native and the wasm benchmarks measure the same bytes:
//   corpus-texts.json  every text of the agent trajectories a tokenizer sees
//   mixed-texts.json   a mixed corpus: prose, code, JSON tool output, logs, CJK, emoji
//   session-<n>.json   OpenAI messages of about n tokens (10k, 100k, 1m), corpus
//                      trajectories concatenated, each copy marked so none repeats
//
// Usage: node wasm/bench/corpora.mjs OUT_DIR
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { corpusDir, corpusFile, corpusTexts } from "../tests/corpus.mjs";

const { countTokens } = await import("../pkg/node.js");

export const SESSION_SIZES = { "10k": 10_000, "100k": 100_000, "1m": 1_000_000 };

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the of and to in is that it for was on are as with his they at be this from have or by one had not but what all were when we there can an your which their said if do will each about how up out them then she many some so these would other into has more her two like him see time could no make than first been its who now people my made over did down only way find use may water long little very after words called just where most know get through back much before go good new write our used me man too any day same right look think also around another came come work three word must because does part even place well such here take why things help put years different away again off went old number great tell men say small every found still between name should home big give air line set own under read last never us left end along while might next sound below saw something thought both few those always looked show large often together asked house world going want school important until form food keep children feet land side without boy once animals life enough took sometimes four head above kind began almost live page got earth need far hand high year mother light parts country father let night following picture being study second eyes soon times story boys since white days ever paper hard near sentence better best across during today others however sure means knew try told young miles sun ways thing whole hear example heard several change answer room sea against top turned learn point city play toward five using himself usually"
).split(" ");
const IDENTS = ["config", "buffer", "parse_args", "HttpClient", "user_id", "retryCount", "MAX_SIZE", "tokenize", "self", "ctx", "Result", "Vec<u8>", "async", "await", "impl", "fn", "def", "return", "None", "import", "from", "const", "let", "match", "Some", "Err", "Ok"];
const CJK = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持音".split("");
const KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテト".split("");
const EMOJI = ["😀", "🎉", "🚀", "👍🏽", "❤️", "🔥", "✅", "⚠️", "🐛", "📦", "👩‍💻", "🇯🇵", "🇫🇷", "🤖", "✨", "🧪", "📈", "🙏", "👨‍👩‍👧", "🍕"];

function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

function prose(rng) {
  const sentences = [];
  for (let s = 0, n = 3 + Math.floor(rng() * 12); s < n; s++) {
    const words = Array.from({ length: 5 + Math.floor(rng() * 18) }, () => pick(rng, WORDS));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    sentences.push(`${words.join(" ")}${pick(rng, [".", ".", ".", "?", "!", ";"])}`);
  }
  return sentences.join(" ");
}

function code(rng) {
  const lines = [];
  for (let l = 0, n = 6 + Math.floor(rng() * 30); l < n; l++) {
    const indent = "    ".repeat(Math.floor(rng() * 3));
    const a = pick(rng, IDENTS);
    const b = pick(rng, IDENTS);
    lines.push(
      pick(rng, [
        `${indent}let ${a}_${l} = ${b}.get(${Math.floor(rng() * 1000)})?;`,
        `${indent}if ${a}.len() > ${Math.floor(rng() * 64)} { return Err(Error::new("${pick(rng, WORDS)} ${pick(rng, WORDS)}")); }`,
        `${indent}def ${a}_${b}(self, ${pick(rng, IDENTS)}: int = ${Math.floor(rng() * 10)}) -> ${pick(rng, ["str", "bool", "list[int]", "None"])}:`,
        `${indent}for (const ${a} of ${b}) { total += ${a}.${pick(rng, IDENTS)} * 0x${Math.floor(rng() * 65535).toString(16)}; }`,
        `${indent}// ${prose(rng).slice(0, 60)}`,
        `${indent}${a}[${Math.floor(rng() * 9)}] = {"${b}": ${rng().toFixed(4)}, "${pick(rng, WORDS)}": [${Math.floor(rng() * 99)}]}`,
      ]),
    );
  }
  return lines.join("\n");
}

function json(rng) {
  const items = Array.from({ length: 2 + Math.floor(rng() * 12) }, (_, i) => ({
    id: `${Math.floor(rng() * 2 ** 32).toString(16)}-${Math.floor(rng() * 2 ** 16).toString(16)}`,
    name: `${pick(rng, WORDS)}_${pick(rng, IDENTS)}`,
    path: `/srv/${pick(rng, WORDS)}/${pick(rng, WORDS)}/${i}.json`,
    size: Math.floor(rng() * 1e7),
    score: Number(rng().toFixed(6)),
    ok: rng() > 0.3,
    tags: Array.from({ length: Math.floor(rng() * 4) }, () => pick(rng, WORDS)),
  }));
  return JSON.stringify({ status: "ok", count: items.length, items }, null, rng() > 0.5 ? 2 : 0);
}

function logs(rng) {
  const lines = [];
  let t = 1_700_000_000_000 + Math.floor(rng() * 1e9);
  for (let l = 0, n = 5 + Math.floor(rng() * 40); l < n; l++) {
    t += Math.floor(rng() * 5000);
    const level = pick(rng, ["INFO", "INFO", "DEBUG", "WARN", "ERROR"]);
    lines.push(
      `${new Date(t).toISOString()} ${level.padEnd(5)} [${pick(rng, IDENTS)}] ${pick(rng, [
        `GET /api/v1/${pick(rng, WORDS)}/${Math.floor(rng() * 1e6)} 200 ${Math.floor(rng() * 900)}ms`,
        `connection to 10.0.${Math.floor(rng() * 255)}.${Math.floor(rng() * 255)}:5432 reset by peer (retry ${Math.floor(rng() * 5)}/5)`,
        `test ${pick(rng, IDENTS)}::${pick(rng, WORDS)}_${pick(rng, WORDS)} ... ${pick(rng, ["ok", "ok", "FAILED", "ignored"])}`,
        `  File "/usr/lib/python3.12/${pick(rng, WORDS)}.py", line ${Math.floor(rng() * 900)}, in ${pick(rng, IDENTS)}`,
        `sha256=${Array.from({ length: 8 }, () => Math.floor(rng() * 2 ** 32).toString(16).padStart(8, "0")).join("")}`,
      ])}`,
    );
  }
  return lines.join("\n");
}

function cjk(rng) {
  let text = "";
  for (let s = 0, n = 4 + Math.floor(rng() * 10); s < n; s++) {
    const source = rng() > 0.3 ? CJK : KANA;
    text += Array.from({ length: 8 + Math.floor(rng() * 30) }, () => pick(rng, source)).join("");
    text += pick(rng, ["。", "、", "，", "！", "？", " ", "\n"]);
  }
  return text;
}

function emoji(rng) {
  return Array.from({ length: 10 + Math.floor(rng() * 40) }, () =>
    rng() > 0.5 ? pick(rng, EMOJI) : pick(rng, WORDS),
  ).join(rng() > 0.5 ? " " : "");
}

/** About `bytes` bytes of each kind, in a fixed order: `{ kind: texts }`. */
export function mixedKinds(bytes = 200_000) {
  const rng = random(0x5eed);
  const kinds = {};
  for (const kind of [prose, code, json, logs, cjk, emoji]) {
    const texts = (kinds[kind.name] = []);
    let size = 0;
    while (size < bytes) {
      const text = kind(rng);
      texts.push(text);
      size += Buffer.byteLength(text);
    }
  }
  return kinds;
}

/** The mixed corpus: every kind's texts, one kind after another. */
export const mixedTexts = (bytes) => Object.values(mixedKinds(bytes)).flat();

/** Corpus trajectories concatenated to about `tokens` tokens: one system prompt, then
 * every trajectory's other messages, copy k marked `[k]` with its tool call ids suffixed,
 * so no message repeats (the memo saves nothing a real session would not). `count`
 * counts a text's tokens (o200k_base through this package unless given). */
export function session(tokens, count = countTokens) {
  const files = readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort();
  const trajectories = files.map((f) => corpusFile(f).filter((m) => ["system", "user", "assistant", "tool"].includes(m.role)));
  const messages = [trajectories[0][0]];
  let total = 0;
  for (let k = 0; total < tokens; k++) {
    const trajectory = trajectories[k % trajectories.length];
    for (const original of trajectory) {
      if (original.role === "system") continue;
      const m = structuredClone(original);
      if (typeof m.content === "string") m.content = `[${k}] ${m.content}`;
      else if (Array.isArray(m.content)) {
        const text = m.content.find((p) => typeof p.text === "string");
        if (text) text.text = `[${k}] ${text.text}`;
      }
      for (const call of m.tool_calls ?? []) call.id = `${call.id}_${k}`;
      if (m.tool_call_id) m.tool_call_id = `${m.tool_call_id}_${k}`;
      messages.push(m);
      total += count(JSON.stringify(m.content ?? "")) + 4;
      if (total >= tokens && m.role === "assistant" && !m.tool_calls?.length) break;
    }
  }
  return messages;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) throw new Error("usage: node wasm/bench/corpora.mjs OUT_DIR");
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/corpus-texts.json`, JSON.stringify(corpusTexts()));
  writeFileSync(`${out}/mixed-texts.json`, JSON.stringify(mixedTexts()));
  for (const [name, tokens] of Object.entries(SESSION_SIZES)) {
    writeFileSync(`${out}/session-${name}.json`, JSON.stringify(session(tokens)));
  }
}
