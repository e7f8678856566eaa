// textures.mjs - finds the file a model's texture path names, for render.mjs's server.
//
// A path as the model writes it (`Textures\Foo.blp`, `textures/foo.BLP`) is looked up in
// each folder of a job's list in turn: first the whole path, each part matched without
// regard to case (DIR/Textures/Foo.blp), then, in each folder again, the bare file name
// (DIR/Foo.blp). The first file found wins. Folder listings are cached for the batch.
import fs from 'node:fs';
import path from 'node:path';

export class TextureResolver {
  constructor() {
    /** Distinct folder lists, by their JSON; a job's list is known by its index here. */
    this.sets = [];
    this.setIndex = new Map();
    /** Folder -> Map(lower-case name -> real name), or null when it cannot be read. */
    this.listings = new Map();
  }

  /** The index of a list of folders (the same list gives the same index). */
  setOf(dirs) {
    const key = JSON.stringify(dirs);
    if (!this.setIndex.has(key)) {
      this.setIndex.set(key, this.sets.length);
      this.sets.push(dirs);
    }
    return this.setIndex.get(key);
  }

  listing(dir) {
    if (!this.listings.has(dir)) {
      let names = null;
      try {
        names = new Map();
        for (const name of fs.readdirSync(dir)) {
          const lower = name.toLowerCase();
          // Two names that differ only in case: keep the first in sorted order, whatever
          // order the file system lists them in.
          if (!names.has(lower) || name < names.get(lower)) names.set(lower, name);
        }
      } catch {
        names = null;
      }
      this.listings.set(dir, names);
    }
    return this.listings.get(dir);
  }

  /** DIR joined with the parts, each matched case-insensitively; null when absent. */
  walk(dir, parts) {
    let at = dir;
    for (const part of parts) {
      const names = this.listing(at);
      const real = names && names.get(part.toLowerCase());
      if (!real) return null;
      at = path.join(at, real);
    }
    try {
      return fs.statSync(at).isFile() ? at : null;
    } catch {
      return null;
    }
  }

  /** The file for texture path `src` of folder list `set`, or null. */
  resolve(set, src) {
    const dirs = this.sets[set];
    if (!dirs) return null;
    const parts = src.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    if (parts.length === 0 || parts.includes('..')) return null;
    for (const dir of dirs) {
      const f = this.walk(dir, parts);
      if (f) return f;
    }
    for (const dir of dirs) {
      const f = this.walk(dir, parts.slice(-1));
      if (f) return f;
    }
    return null;
  }
}
