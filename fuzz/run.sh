#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) and prints executions and findings.
#   bash fuzz/run.sh [SECONDS] [TARGET...]
# Needs cargo-fuzz (`cargo install cargo-fuzz`). The machine's stable toolchain is used with
# RUSTC_BOOTSTRAP=1, which lets it accept the sanitizer flags cargo-fuzz passes.
# Seeds: the small shared archives for mpq_read; the bundled cube, the MDL and Milkshape error fixtures, and a sample of ../shared/corpus copied
# into fuzz/corpus/ (not committed); gltf_source and gltf_import get a few small self-contained samples from
# ../shared/gltf-samples; read_any, which takes any file, gets some of each format
# and a few that are no model (image and archive headers, plain text, a small texture).
# Crashes land in fuzz/artifacts/TARGET/.
set -uo pipefail
cd "$(dirname "$0")"
secs="${1:-60}"; shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(read_any check optimize render mpq_read texture_decode mdx_decode mdx_roundtrip mdx_via_mdl mdl_parse mdl_roundtrip ms3d_parse alpha_roundtrip gltf_source gltf_import)
shared=../../shared/corpus
seed() { # TARGET KIND
  local dir="corpus/$1"; mkdir -p "$dir"
  if [ "$2" = mdx ]; then
    cp ../examples/cube.mdx "$dir/" 2>/dev/null
    [ -d "$shared/mdx" ] && ls -S "$shared/mdx"/*.mdx | tail -40 | xargs -I{} cp {} "$dir/"
  elif [ "$2" = ms3d ]; then
    cp ../crates/mdlx/tests/ms3d_errors/*.txt "$dir/" 2>/dev/null
    [ -d "$shared/ms3d_ascii" ] && ls -S "$shared/ms3d_ascii"/*.txt | tail -20 | xargs -I{} cp {} "$dir/"
  elif [ "$2" = gltf ]; then
    # Small self-contained samples (embedded buffers or GLB: the fuzzer reads no files).
    local g=../../shared/gltf-samples
    for f in SimpleSkin/SimpleSkin.gltf SimpleSparseAccessor/SimpleSparseAccessor.gltf \
      TriangleWithoutIndices/TriangleWithoutIndices.gltf BoxAnimated/BoxAnimated.gltf \
      BoxVertexColors/BoxVertexColors.glb RiggedSimple/RiggedSimple.glb BoxTextured/BoxTextured.glb \
      AnimatedMorphCube/AnimatedMorphCube.glb; do
      cp "$g/$f" "$dir/" 2>/dev/null
    done
  elif [ "$2" = texture ]; then
    # The smallest of each kind the corpus has, so the fuzzer mutates headers, not pixels.
    for ext in blp dds tga; do
      [ -d "$shared/textures" ] && ls -S "$shared/textures"/*."$ext" 2>/dev/null | tail -6 | xargs -I{} cp {} "$dir/"
    done
  elif [ "$2" = mpq ]; then
    # The small shared archives (a decoy header, no listfile, imploded, a v2 header).
    for f in inwc3+JMPQ3__spazzledMap.w3x inwc3+JMPQ3__listfilelessMap.w3x \
      TheGrayDot+mpqcli__mpq_without_internal_listfile.mpq Drake53+War3Net__ExampleMap203.w3x \
      inwc3+JMPQ3__sectorShiftTest.w3x; do
      cp "../../shared/archives/$f" "$dir/" 2>/dev/null
    done
  elif [ "$2" = any ]; then
    cp ../examples/cube.mdx ../crates/mdlx/tests/mdl_errors/*.mdl ../crates/mdlx/tests/ms3d_errors/*.txt "$dir/" 2>/dev/null
    cp ../crates/mdlx/tests/fuzz_regressions/* "$dir/" 2>/dev/null
    cp "$shared/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx" "$dir/" 2>/dev/null
    for k in mdx:mdx:10 mdl:mdl:20 ms3d_ascii:txt:8 textures:dds:2 textures:tga:2; do
      IFS=: read -r sub ext n <<<"$k"
      [ -d "$shared/$sub" ] && ls -S "$shared/$sub"/*."$ext" 2>/dev/null | tail -"$n" | xargs -I{} cp {} "$dir/"
    done
    printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' >"$dir/png-header.bin"
    printf 'BLP1\0\0\0\0\1\0\0\0' >"$dir/blp-header.bin"
    printf 'PK\x03\x04\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x0b\0\0\0Footman.mdx' >"$dir/zip-header.bin"
    printf '# Readme\n\nThis folder holds models.\n' >"$dir/readme.txt"
    printf '{"asset": {"version": "2.0"}}\n' >"$dir/gltf.json"
    printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$dir/triangle.obj"
  else
    cp ../crates/mdlx/tests/mdl_errors/*.mdl "$dir/" 2>/dev/null
    [ -d "$shared/mdl" ] && ls -S "$shared/mdl"/*.mdl | tail -40 | xargs -I{} cp {} "$dir/"
  fi
}
export RUSTC_BOOTSTRAP=1
status=0
for t in "${targets[@]}"; do
  case "$t" in read_any|check) seed "$t" any ;; mpq_*) seed "$t" mpq ;; gltf_source|gltf_import) seed "$t" gltf ;; texture_*) seed "$t" texture ;; mdl_*) seed "$t" mdl ;; ms3d_*) seed "$t" ms3d ;; *) seed "$t" mdx ;; esac
  # The alpha fuzzer also starts from the boar, the one real alpha file.
  [ "$t" = alpha_roundtrip ] && cp "$shared/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx" "corpus/$t/" 2>/dev/null
  log="$(mktemp)"
  cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=1048576 >"$log" 2>&1
  rc=$?
  execs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1)
  [ -z "$execs" ] && execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  finds=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  echo "$t: ${execs:-?} executions in ${secs}s, exit $rc, artifacts: $finds"
  [ $rc -ne 0 ] && { status=1; tail -30 "$log"; }
  rm -f "$log"
done
exit $status
