"""The type stubs (mdlx/__init__.pyi) name what the compiled module has, and nothing else."""

import ast
import pathlib

import mdlx


def stub():
    path = pathlib.Path(mdlx.__file__).with_name("__init__.pyi")
    return ast.parse(path.read_text())


def test_stub_names_match_the_module():
    tree = stub()
    top = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    top |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    public = {n for n in mdlx.__all__}
    assert public == top, (sorted(public - top), sorted(top - public))
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        runtime = getattr(mdlx, cls.name)
        for member in cls.body:
            if isinstance(member, ast.FunctionDef):
                name = member.name
            elif isinstance(member, ast.AnnAssign):
                name = member.target.id
            else:
                continue
            if cls.name == "MdlxError" and isinstance(member, ast.AnnAssign):
                continue  # set on each instance (checked in test_archive_errors.py)
            assert hasattr(runtime, name), f"{cls.name}.{name} is in the stub, not the module"
        declared = {m.name if isinstance(m, ast.FunctionDef) else getattr(m.target, "id", "")
                    for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AnnAssign))}
        missing = {n for n in dir(runtime) if not n.startswith("_")} - declared
        if cls.name != "MdlxError":
            assert not missing, f"{cls.name}: {sorted(missing)} missing from the stub"
