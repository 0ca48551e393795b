/* Walk a buffer of TFRecord records in C: verify both CRC32Cs of every record and make the
 * records' `bytes`, with one Python call per buffer instead of one `crc32c` call per record.
 *
 * `walk(buffer, start, limit)` gives exactly what `feedline.io.framing.walk` gives (the records,
 * the position where the first incomplete record begins, and the first damaged record as
 * ("corrupted", offset, what, record start) or None), plus the runs of records of one length
 * as (index, count, data offset, stride, length). The CRCs use the SSE4.2 instruction, three
 * records at a time so that the instruction's latency is hidden; `HARDWARE` is 0 where that
 * instruction is missing, and Python then walks the buffer itself (`batch_walk`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define WALK_X86 1
#else
#define WALK_X86 0
#endif

#define MASK_DELTA 0xA282EAD8u
#define HEADER_SIZE 12
#define FOOTER_SIZE 4
#define RELEASE_GIL_BYTES (64 * 1024) /* below this, releasing the GIL costs more than it frees */

static int hardware = 0;

static uint32_t read_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t read_u64(const unsigned char *p) {
    return (uint64_t)read_u32(p) | (uint64_t)read_u32(p + 4) << 32;
}

static uint32_t masked(uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + MASK_DELTA;
}

#if WALK_X86
__attribute__((target("sse4.2")))
static uint32_t crc_continue(uint32_t state, const unsigned char *p, size_t n) {
    uint64_t crc = state;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        crc = _mm_crc32_u64(crc, word);
    }
    for (; i < n; i++)
        crc = _mm_crc32_u8((uint32_t)crc, p[i]);
    return (uint32_t)crc;
}

/* The CRC32Cs of three spans at once: the common length in lockstep, then each tail. */
__attribute__((target("sse4.2")))
static void crc_three(const unsigned char *const spans[3], const size_t lengths[3],
                      uint32_t out[3]) {
    size_t common = lengths[0];
    if (lengths[1] < common) common = lengths[1];
    if (lengths[2] < common) common = lengths[2];
    uint64_t a = 0xFFFFFFFFu, b = 0xFFFFFFFFu, c = 0xFFFFFFFFu;
    size_t i = 0;
    for (; i + 8 <= common; i += 8) {
        uint64_t wa, wb, wc;
        memcpy(&wa, spans[0] + i, 8);
        memcpy(&wb, spans[1] + i, 8);
        memcpy(&wc, spans[2] + i, 8);
        a = _mm_crc32_u64(a, wa);
        b = _mm_crc32_u64(b, wb);
        c = _mm_crc32_u64(c, wc);
    }
    out[0] = ~crc_continue((uint32_t)a, spans[0] + i, lengths[0] - i);
    out[1] = ~crc_continue((uint32_t)b, spans[1] + i, lengths[1] - i);
    out[2] = ~crc_continue((uint32_t)c, spans[2] + i, lengths[2] - i);
}
#else
static uint32_t crc_continue(uint32_t state, const unsigned char *p, size_t n) {
    (void)p; (void)n;
    return state; /* never called: HARDWARE is 0 */
}

static void crc_three(const unsigned char *const spans[3], const size_t lengths[3],
                      uint32_t out[3]) {
    (void)spans; (void)lengths;
    out[0] = out[1] = out[2] = 0;
}
#endif

static uint32_t crc_of(const unsigned char *p, size_t n) {
    return ~crc_continue(0xFFFFFFFFu, p, n);
}

/* Pass 1: the records' data spans, up to `limit` of them, stopping at an incomplete record or
 * at a bad length CRC (then *length_problem is that record's start). Returns the count, or -1
 * when out of memory. */
static Py_ssize_t walk_headers(const unsigned char *buf, Py_ssize_t end, Py_ssize_t start,
                               Py_ssize_t limit, Py_ssize_t **starts, Py_ssize_t *position,
                               Py_ssize_t *length_problem) {
    Py_ssize_t count = 0, capacity = 0, pos = start;
    *length_problem = -1;
    while (count < limit && end - pos >= HEADER_SIZE) {
        uint64_t length = read_u64(buf + pos);
        if (masked(crc_of(buf + pos, 8)) != read_u32(buf + pos + 8)) {
            *length_problem = pos;
            break;
        }
        uint64_t room = (uint64_t)(end - pos - HEADER_SIZE);
        if (length > room || room - length < FOOTER_SIZE)
            break; /* incomplete: the caller reads more */
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            Py_ssize_t *grown = PyMem_Realloc(*starts, (size_t)capacity * sizeof(Py_ssize_t));
            if (grown == NULL)
                return -1;
            *starts = grown;
        }
        (*starts)[count++] = pos;
        pos += HEADER_SIZE + (Py_ssize_t)length + FOOTER_SIZE;
    }
    *position = pos;
    return count;
}

/* Pass 2: the index of the first record whose data CRC does not match, or `count`. */
static Py_ssize_t first_bad_data(const unsigned char *buf, const Py_ssize_t *starts,
                                 Py_ssize_t count) {
    for (Py_ssize_t first = 0; first < count; first += 3) {
        const unsigned char *spans[3];
        size_t lengths[3];
        uint32_t crcs[3];
        int group = count - first < 3 ? (int)(count - first) : 3;
        for (int k = 0; k < 3; k++) {
            Py_ssize_t record = starts[first + (k < group ? k : 0)];
            spans[k] = buf + record + HEADER_SIZE;
            lengths[k] = (size_t)read_u64(buf + record);
        }
        crc_three(spans, lengths, crcs);
        for (int k = 0; k < group; k++)
            if (masked(crcs[k]) != read_u32(spans[k] + lengths[k]))
                return first + k;
    }
    return count;
}

static PyObject *runs_of(const unsigned char *buf, const Py_ssize_t *starts, Py_ssize_t count) {
    PyObject *runs = PyList_New(0);
    Py_ssize_t first = 0;
    while (runs != NULL && first < count) {
        uint64_t length = read_u64(buf + starts[first]);
        Py_ssize_t last = first + 1;
        while (last < count && read_u64(buf + starts[last]) == length)
            last++;
        PyObject *run = Py_BuildValue("(nnnnn)", first, last - first,
                                      starts[first] + HEADER_SIZE,
                                      (Py_ssize_t)length + HEADER_SIZE + FOOTER_SIZE,
                                      (Py_ssize_t)length);
        if (run == NULL || PyList_Append(runs, run) < 0) {
            Py_XDECREF(run);
            Py_CLEAR(runs);
            break;
        }
        Py_DECREF(run);
        first = last;
    }
    return runs;
}

static PyObject *walk(PyObject *module, PyObject *args) {
    Py_buffer view;
    Py_ssize_t start, limit;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &start, &limit))
        return NULL;
    PyObject *result = NULL, *records = NULL, *problem = NULL, *runs = NULL;
    Py_ssize_t *starts = NULL, position = start, length_problem = -1;
    const unsigned char *buf = view.buf;
    if (!hardware || start < 0 || start > view.len || limit < 0) {
        PyErr_SetString(PyExc_ValueError, hardware ? "walk: start must lie in the buffer and "
                        "limit be >= 0" : "walk: this CPU has no CRC32C instruction");
        goto done;
    }
    Py_ssize_t count = walk_headers(buf, view.len, start, limit, &starts, &position,
                                    &length_problem);
    if (count < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t good;
    Py_ssize_t bytes = position - start;
    /* Only an immutable `bytes` may be read without the GIL: another thread could rewrite a
     * bytearray's lengths meanwhile, and pass 2 reads them again. */
    if (bytes >= RELEASE_GIL_BYTES && view.obj != NULL && PyBytes_CheckExact(view.obj)) {
        Py_BEGIN_ALLOW_THREADS
        good = first_bad_data(buf, starts, count);
        Py_END_ALLOW_THREADS
    } else {
        good = first_bad_data(buf, starts, count);
    }
    if (good < count) {
        Py_ssize_t record = starts[good];
        position = record;
        problem = Py_BuildValue("(snsn)", "corrupted", record + HEADER_SIZE,
                                "data CRC does not match", record);
    } else if (length_problem >= 0) {
        position = length_problem;
        problem = Py_BuildValue("(snsn)", "corrupted", length_problem,
                                "length CRC does not match", length_problem);
    } else {
        problem = Py_NewRef(Py_None);
    }
    if (problem == NULL)
        goto done;
    records = PyList_New(good);
    if (records == NULL)
        goto done;
    for (Py_ssize_t index = 0; index < good; index++) {
        Py_ssize_t record = starts[index];
        PyObject *data = PyBytes_FromStringAndSize((const char *)buf + record + HEADER_SIZE,
                                                   (Py_ssize_t)read_u64(buf + record));
        if (data == NULL)
            goto done;
        PyList_SET_ITEM(records, index, data);
    }
    runs = runs_of(buf, starts, good);
    if (runs == NULL)
        goto done;
    result = Py_BuildValue("(OnOO)", records, position, problem, runs);
done:
    Py_XDECREF(records);
    Py_XDECREF(problem);
    Py_XDECREF(runs);
    PyMem_Free(starts);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_VARARGS,
     "walk(buffer, start, limit) -> (records, position, problem, runs); see the module."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_walk",
    "TFRecord records verified and sliced in C (see feedline/io/_walk.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walk(void) {
#if WALK_X86
    __builtin_cpu_init();
    hardware = __builtin_cpu_supports("sse4.2") != 0;
#endif
    PyObject *module = PyModule_Create(&module_def);
    if (module != NULL && PyModule_AddIntConstant(module, "HARDWARE", hardware) < 0)
        Py_CLEAR(module);
    return module;
}
