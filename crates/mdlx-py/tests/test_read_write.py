"""Reading and writing through the bindings, on the real corpus."""

import time

import mdlx
import pytest
from conftest import CORPUS, corpus_files, need, pick, smallest


def test_every_corpus_mdx_round_trips_byte_identical():
    files = corpus_files("mdx")
    assert len(files) > 500, len(files)
    same, different, failed = 0, [], []
    started = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        try:
            loaded = mdlx.read(path)
        except mdlx.MdlxError as e:
            failed.append((path.name, str(e)))
            continue
        if loaded.format != "mdx":
            # The WoW alpha file is read as its conversion; written back as MDX it is a
            # version-800 model, not the same bytes.
            assert loaded.format == "mdx-alpha", (path.name, loaded.format)
            continue
        out = loaded.model.to_bytes("mdx")
        if out == data:
            same += 1
        else:
            different.append(path.name)
    took = time.perf_counter() - started
    print(f"\ncorpus MDX through Python: {same} of {len(files)} byte-identical, "
          f"{len(different)} different, {len(failed)} unreadable, {took:.1f} s")
    assert not failed, failed
    assert not different, different


def test_read_from_bytes_equals_read_from_path():
    path = smallest("mdx", "1000")
    a = mdlx.read(path)
    b = mdlx.read(path.read_bytes())
    assert a.model.to_bytes() == b.model.to_bytes() == path.read_bytes()
    assert a.source == b.source == "MDX, version 1000 (reforged)"
    assert (a.format, a.version) == ("mdx", 1000)


def test_model_views_match_an_independent_count(tmp_path):
    # The MDL text names its blocks: count them with plain text search, independently of
    # the library, and compare with the views.
    path = max(corpus_files("mdl", "800"), key=lambda p: p.stat().st_size if p.stat().st_size < 300_000 else 0)
    text = path.read_text(errors="replace")
    model = mdlx.read(path).model
    lines = [l.strip() for l in text.splitlines()]
    assert model.version == 800
    assert model.geoset_count == sum(1 for l in lines if l.startswith("Geoset ") or l == "Geoset {")
    assert model.node_counts.get("bones", 0) == sum(1 for l in lines if l.startswith("Bone \""))
    anims = [l for l in lines if l.startswith("Anim \"")]
    assert [s.name for s in model.sequences] == [a.split('"')[1] for a in anims]
    counts = model.counts()
    assert counts["sequences"] == len(model.sequences)
    assert counts["bones"] == model.node_counts.get("bones", 0)
    assert len(model.nodes) == sum(model.node_counts.values())


def test_sequence_views_against_the_mdl_text():
    path = CORPUS / "mdl" / "AMISD666__War3ModelView__testmodel__000.mdl"
    need(path)
    model = mdlx.read(path).model
    text = path.read_text(errors="replace")
    for seq in model.sequences:
        i = text.index(f'Anim "{seq.name}"')
        block = text[i:text.index("}", i)]
        start, end = block.split("Interval {")[1].split("}")[0].split(",")[:2]
        assert seq.interval == (int(start), int(end))
        assert seq.looping == ("NonLooping" not in block)
        assert seq.length == seq.interval[1] - seq.interval[0]


def test_write_by_extension_and_version(tmp_path):
    src = smallest("mdx", "800")
    model = mdlx.read(src).model
    mdl = tmp_path / "out.mdl"
    assert model.write(mdl) == []
    again = mdlx.read(mdl)
    assert again.format == "mdl"
    # MDL back to MDX gives the file's bytes.
    assert again.model.to_bytes("mdx") == src.read_bytes()
    reforged = tmp_path / "out1000.mdx"
    lost = model.write(reforged, version=1000)
    assert isinstance(lost, list)
    assert mdlx.read(reforged).model.version == 1000
    # Milkshape by its extension (.txt), read back as a model.
    ms3d = tmp_path / "out.txt"
    model.write(ms3d)
    assert mdlx.read(ms3d).format == "ms3d"
    # Nothing left over: no temporary files beside the outputs.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mdl", "out.txt", "out1000.mdx"]


def test_write_replaces_a_file_whole_and_follows_links(tmp_path):
    src = smallest("mdx", "800")
    model = mdlx.read(src).model
    target = tmp_path / "real.mdx"
    target.write_bytes(b"old")
    link = tmp_path / "link.mdx"
    link.symlink_to(target)
    model.write(link)
    assert link.is_symlink()
    assert target.read_bytes() == src.read_bytes()


def test_write_refuses_an_unknown_extension_and_writes_nothing(tmp_path):
    model = mdlx.read(smallest("mdx", "800")).model
    with pytest.raises(mdlx.MdlxError, match="extension"):
        model.write(tmp_path / "x.png")
    with pytest.raises(mdlx.MdlxError, match="does not exist"):
        model.write(tmp_path / "no" / "such" / "folder.mdx")
    with pytest.raises(mdlx.MdlxError, match="is a folder"):
        model.write(tmp_path, format="mdx")
    assert list(tmp_path.iterdir()) == []


def test_model_is_read_only():
    model = mdlx.read(smallest("mdx", "800")).model
    with pytest.raises(AttributeError):
        model.version = 900


def test_corpus_mdl_read_and_written_as_mdl_reads_back_the_same():
    files = corpus_files("mdl", "800")[::8] + corpus_files("mdl", "1000") + corpus_files("mdl", "1100")
    fragments = []
    for path in files:
        try:
            model = mdlx.read(path).model
        except mdlx.MdlxError as e:
            # Hand-written fixtures of one block, without the Model block the game needs.
            assert "no Model block" in str(e), (path.name, str(e))
            fragments.append(path.name)
            continue
        again = mdlx.read(model.to_bytes("mdl")).model
        assert again.to_bytes("mdx") == model.to_bytes("mdx"), path.name
    print(f"\n{len(files) - len(fragments)} corpus MDL written as MDL read back to the same "
          f"model; refused as fragments (no Model block): {', '.join(fragments) or 'none'}")
    assert len(fragments) <= 3


def test_interpreter_runs_while_the_library_works():
    # The interpreter is released around long work: another Python thread keeps counting
    # while the main thread waits in optimize().
    import threading

    # A model whose optimization takes a second or two (not the corpus's largest).
    model = mdlx.read(pick("mdx", "800", 150_000)).model
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.05)
    # The thread's pace while this one sleeps (the interpreter is free then).
    first, t0 = ticks, time.perf_counter()
    time.sleep(0.2)
    rate = (ticks - first) / (time.perf_counter() - t0)
    before = ticks
    started = time.perf_counter()
    model.optimize()
    took = time.perf_counter() - started
    during = ticks - before
    stop.set()
    t.join()
    print(f"\noptimize took {took:.2f} s; the other thread counted {during} meanwhile "
          f"({rate * took:.0f} at its free pace)")
    # Held for the whole call, the other thread would count only in the few ms around it.
    assert took > 0.1, took
    assert during > 0.2 * rate * took, (during, rate, took)
