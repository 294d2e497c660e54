# SPDX-License-Identifier: Apache-2.0
"""ctypes declarations of libgr's public interface (gr/gr.h)."""
import ctypes
import ctypes.util
import os

c_int64_p = ctypes.POINTER(ctypes.c_int64)


class LibraryInfo(ctypes.Structure):
    _fields_ = [("version", ctypes.c_char_p), ("vertex_id_bits", ctypes.c_int), ("cuda", ctypes.c_bool),
                ("nccl", ctypes.c_bool), ("metis", ctypes.c_bool), ("cuda_runtime", ctypes.c_int),
                ("cuda_driver", ctypes.c_int)]


class PrimitiveInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("summary", ctypes.c_char_p), ("needs_source", ctypes.c_bool),
                ("needs_weights", ctypes.c_bool), ("needs_in_edges", ctypes.c_bool), ("values", ctypes.c_int),
                ("accumulates_sources", ctypes.c_bool)]


class ContextInfo(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_char_p), ("devices", ctypes.c_int), ("transport", ctypes.c_char_p)]


class GraphInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("vertices", ctypes.c_uint64), ("edges", ctypes.c_uint64),
                ("arcs", ctypes.c_uint64), ("directed", ctypes.c_bool), ("weighted", ctypes.c_bool),
                ("load_seconds", ctypes.c_double), ("from_cache", ctypes.c_bool)]


class Values(ctypes.Structure):
    _fields_ = [("n", ctypes.c_uint64), ("type", ctypes.c_int), ("values", ctypes.c_void_p),
                ("values_are_ids", ctypes.c_bool), ("predecessors", c_int64_p)]


class RunSummary(ctypes.Structure):
    _fields_ = [("source", ctypes.c_int64), ("ms", ctypes.c_double), ("iterations", ctypes.c_int),
                ("edges_visited", ctypes.c_uint64), ("traversed_edges", ctypes.c_uint64),
                ("reached", ctypes.c_uint64), ("gteps", ctypes.c_double), ("iteration_limit", ctypes.c_bool),
                ("devices", ctypes.c_int), ("levels", ctypes.c_int), ("has_levels", ctypes.c_bool),
                ("has_level_bytes", ctypes.c_bool), ("extract_seconds", ctypes.c_double),
                ("sources", ctypes.c_uint64)]


class DeviceInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 288), ("peak_bytes", ctypes.c_uint64), ("allocations", ctypes.c_uint64),
                ("reallocations", ctypes.c_uint64), ("host_graph_bytes", ctypes.c_uint64),
                ("l2_bytes", ctypes.c_uint64), ("memory_bandwidth", ctypes.c_uint64)]


VALUES_INT64, VALUES_FLOAT32, VALUES_FLOAT64 = 0, 1, 2


def _find():
    """libgr: GR_LIBRARY (a path) first, so that a build tree's library can
    stand in for any other; then the copy pip built into this package; then
    what the dynamic loader finds (an install by `cmake --install`)."""
    path = os.environ.get("GR_LIBRARY")
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise ImportError("gr: cannot load GR_LIBRARY=%s: %s" % (path, e)) from e
    errors = []
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libgr.so")
    candidates = [bundled] if os.path.exists(bundled) else []
    candidates += ["libgr.so", ctypes.util.find_library("gr"), "libgr.so.0.1"]
    for name in candidates:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("gr: cannot load libgr (install the package with `pip install ./python`, which builds it, "
                      "set GR_LIBRARY to the path of a libgr.so, or install gr with `cmake --install`): "
                      + "; ".join(errors))


lib = _find()

_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_signatures = {
    "gr_library_get_info": (None, [ctypes.POINTER(LibraryInfo)]),
    "gr_gpu_count": (ctypes.c_int, [ctypes.POINTER(ctypes.c_int)]),
    "gr_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gr_status_string": (ctypes.c_char_p, [ctypes.c_int]),
    "gr_error_message": (ctypes.c_char_p, []),
    "gr_options_create": (ctypes.c_int, [_PP]),
    "gr_options_destroy": (None, [_PP]),
    "gr_options_set": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "gr_primitive_count": (ctypes.c_int, []),
    "gr_primitive_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gr_primitive_get_info": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(PrimitiveInfo)]),
    "gr_context_create": (ctypes.c_int, [_PP, _P]),
    "gr_context_destroy": (None, [_PP]),
    "gr_context_get_info": (ctypes.c_int, [_P, ctypes.POINTER(ContextInfo)]),
    "gr_graph_open": (ctypes.c_int, [_PP, ctypes.c_char_p, _P]),
    "gr_graph_generate": (ctypes.c_int, [_PP, ctypes.c_char_p, _P]),
    "gr_graph_create_csr": (ctypes.c_int, [_PP, ctypes.c_uint64, c_int64_p, c_int64_p,
                                           ctypes.POINTER(ctypes.c_float), _P]),
    "gr_graph_create_coo": (ctypes.c_int, [_PP, ctypes.c_uint64, ctypes.c_uint64, c_int64_p, c_int64_p,
                                           ctypes.POINTER(ctypes.c_float), _P]),
    "gr_graph_destroy": (None, [_PP]),
    "gr_graph_get_info": (ctypes.c_int, [_P, ctypes.POINTER(GraphInfo)]),
    "gr_graph_ids": (ctypes.c_int, [_P, c_int64_p]),
    "gr_graph_sample_sources": (ctypes.c_int, [_P, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64, c_int64_p]),
    "gr_problem_create": (ctypes.c_int, [_PP, _P, _P, ctypes.c_char_p, _P]),
    "gr_problem_destroy": (None, [_PP]),
    "gr_problem_run": (ctypes.c_int, [_P, ctypes.c_int64, _PP]),
    "gr_problem_run_sources": (ctypes.c_int, [_P, c_int64_p, ctypes.c_uint64, _PP]),
    "gr_problem_get_values": (ctypes.c_int, [_P, ctypes.POINTER(Values)]),
    "gr_problem_validate": (ctypes.c_int, [_P]),
    "gr_problem_get_device": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(DeviceInfo)]),
    "gr_stats_get_summary": (ctypes.c_int, [_P, ctypes.POINTER(RunSummary)]),
    "gr_stats_destroy": (None, [_PP]),
}
for _name, (_res, _args) in _signatures.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
