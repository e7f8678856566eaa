// textures.mjs - finds the file a model's texture path names, for render.mjs's server.
//
// A path as the model writes it (`Textures\Foo.blp`, `textures/foo.BLP`) is looked up in
// each folder of a job's list in turn: first the whole path, each part matched without
// regard to case (DIR/Textures/Foo.blp), then, in each folder again, the bare file name
// (DIR/Foo.blp). The first file found wins; where names differ only in case, the sorted
// first that leads to a file. Folder listings are cached for the batch.
import fs from 'node:fs';
import path from 'node:path';

export class TextureResolver {
  constructor() {
    /** Distinct folder lists, by their JSON; a job's list is known by its index here. */
    this.sets = [];
    this.setIndex = new Map();
    /** Folder -> its listing (see listing()), read once per batch. */
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

  /** Map(lower-case name -> real names, sorted) of a folder, or null when unreadable. */
  listing(dir) {
    if (!this.listings.has(dir)) {
      let names = null;
      try {
        names = new Map();
        for (const name of fs.readdirSync(dir).sort()) {
          const lower = name.toLowerCase();
          if (!names.has(lower)) names.set(lower, []);
          names.get(lower).push(name);
        }
      } catch {
        names = null;
      }
      this.listings.set(dir, names);
    }
    return this.listings.get(dir);
  }

  /**
   * The file DIR/parts..., each part matched case-insensitively, or null. Names that differ
   * only in case (Textures/ and textures/ side by side) are all tried, in sorted order.
   */
  walk(dir, parts) {
    if (parts.length === 0) {
      try {
        return fs.statSync(dir).isFile() ? dir : null;
      } catch {
        return null;
      }
    }
    const names = this.listing(dir);
    for (const real of (names && names.get(parts[0].toLowerCase())) || []) {
      const found = this.walk(path.join(dir, real), parts.slice(1));
      if (found) return found;
    }
    return null;
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
