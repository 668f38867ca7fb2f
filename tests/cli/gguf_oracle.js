// gguf_oracle.js MODULE_DIR FILE...: each file as Hugging Face's @huggingface/gguf
// parser reads it (metadata, tensor infos, the data section's offset), as JSON
// on stdout, one object per file in order; a file it refuses gives {error}.
const path = require("path");
const { gguf } = require(path.join(process.argv[2], "node_modules/@huggingface/gguf"));
(async () => {
  const out = [];
  for (const f of process.argv.slice(3)) {
    try {
      const r = await gguf(path.resolve(f), { allowLocalFile: true });
      out.push({
        metadata: r.metadata,
        tensors: r.tensorInfos.map((t) => ({ name: t.name, shape: t.shape.map(Number),
                                             dtype: t.dtype, offset: Number(t.offset) })),
        data_offset: Number(r.tensorDataOffset),
      });
    } catch (e) {
      out.push({ error: String(e) });
    }
  }
  process.stdout.write(JSON.stringify(out, (k, v) => (typeof v === "bigint" ? v.toString() : v)));
})();
