"""Compare two table folders' 1o9s/2o9s files without their headers.

Usage: python3 compare-blocks.py DIR_A DIR_B  (e.g. tables/assaut tables/asalto)

The format (src/table/mod.rs): a 40-byte preamble, the compressed blocks
from byte 40 to index_offset, then the index: an 80-byte header plus the
tool version, the tier directory and the block tables. The header names the
variant, so it is left out; everything after it is compared.
"""
import hashlib
import struct
import sys


def parts(path):
    with open(path, "rb") as f:
        pre = f.read(40)
        index_offset, index_len = struct.unpack("<QQ", pre[16:32])
        h = hashlib.sha256()
        f.seek(40)
        left = index_offset - 40
        while left > 0:
            b = f.read(min(left, 1 << 24))
            h.update(b)
            left -= len(b)
        f.seek(index_offset)
        index = f.read(index_len)
    version_len = struct.unpack("<H", index[6:8])[0]
    return h.hexdigest(), index[80 + version_len:]


a_dir, b_dir = sys.argv[1], sys.argv[2]
for name in ["1o9s", "2o9s"]:
    a = parts(f"{a_dir}/{name}.atb")
    b = parts(f"{b_dir}/{name}.atb")
    print(f"{name}: value blocks {'identical' if a[0] == b[0] else 'DIFFER'}, "
          f"directory and block table {'identical' if a[1] == b[1] else 'DIFFER'}")
