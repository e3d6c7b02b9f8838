"""The library's build backend (PEP 517), in the standard library alone.

pip builds a package from a folder with the backend its pyproject.toml names, which it first
installs from an index; setuptools also writes build/ and *.egg-info into the folder it builds.
This one needs nothing to be installed, so `pip install /path/to/payline/sdk/python` works
without an index, in any virtual environment (Debian's `python3 -m venv`, a pyenv Python's), and
it writes only into the directories pip gives it: the checkout stays as it was.

It builds what the library is: the pure-Python package `payline` (its .py files and py.typed),
described by pyproject.toml's [project] table and README.md, as a py3-none-any wheel, a source
archive, or an editable wheel (a .pth naming this folder).
"""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

try:
    import tomllib
except ImportError:  # before 3.11, which [project] requires-python refuses anyway
    raise SystemExit("the payline library needs Python 3.11 or later") from None

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "payline"
# Fixed times, so the same source builds the same bytes (zip cannot hold dates before 1980).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
SDIST_FILES = ["pyproject.toml", "README.md", "_build_backend.py"]


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name():
    p = _project()
    return f"{p['name']}-{p['version']}"


def _metadata():
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p['description']}",
        f"Requires-Python: {p['requires-python']}",
    ]
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        return "\n".join(lines) + "\n\n" + f.read()


WHEEL = "Wheel-Version: 1.0\nGenerator: payline _build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files():
    """The package's files, as (path in the wheel, path on disk), in a stable order."""
    root = os.path.join(HERE, PACKAGE)
    names = sorted(n for n in os.listdir(root) if n.endswith(".py") or n == "py.typed")
    return [(f"{PACKAGE}/{n}", os.path.join(root, n)) for n in names]


def _write_wheel(wheel_directory, files):
    """Writes a wheel of files (path in the wheel, bytes) and its dist-info; returns its name."""
    dist = _dist_name()
    info = f"{dist}.dist-info"
    files = files + [(f"{info}/METADATA", _metadata().encode()), (f"{info}/WHEEL", WHEEL.encode())]
    record = io.StringIO()
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.write(f"{path},sha256={digest},{len(data)}\n")
    record.write(f"{info}/RECORD,,\n")
    files.append((f"{info}/RECORD", record.getvalue().encode()))
    name = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            entry = zipfile.ZipInfo(path, ZIP_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    return name


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [(name, _read(path)) for name, path in _package_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file puts this folder on sys.path: the checkout's files are what is imported.
    return _write_wheel(wheel_directory, [(f"_{PACKAGE}_editable.pth", (HERE + "\n").encode())])


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f"{_dist_name()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for name, text in [("METADATA", _metadata()), ("WHEEL", WHEEL)]:
        with open(os.path.join(metadata_directory, info, name), "w", encoding="utf-8") as f:
            f.write(text)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_sdist(sdist_directory, config_settings=None):
    dist = _dist_name()
    files = [(name, os.path.join(HERE, name)) for name in SDIST_FILES] + _package_files()
    name = f"{dist}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path, data in [("PKG-INFO", _metadata().encode())] + [(n, _read(p)) for n, p in files]:
            entry = tarfile.TarInfo(f"{dist}/{path}")
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 315532800  # 1980-01-01
            tar.addfile(entry, io.BytesIO(data))
    return name
