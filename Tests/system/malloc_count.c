/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* LD_PRELOAD shim for Tests/system/allocations: counts heap allocations made on behalf of
 * libgstreplaycast.so while armed.
 *
 * malloc, calloc, realloc, posix_memalign and aligned_alloc go to the next definition
 * (glibc's). While armed, each call takes a backtrace and counts the allocation as ours if
 * a return address lies in libgstreplaycast.so's code and no frame between the allocator
 * and ours is one of the calls that hand data to the next element (gst_pad_push...): what
 * downstream allocates while we push is the downstream element's. The plugin's code is
 * found once, by file name, with dl_iterate_phdr, so a frame costs a range check; dladdr
 * runs only on the frames inside our calls. The distinct stacks and sizes of the counted
 * allocations (the first MC_KEPT) are kept with how often each was seen, for the test to
 * print.
 *
 * Build: cc -shared -fPIC -O2 -o malloc_count.so malloc_count.c -ldl
 * Use:   LD_PRELOAD=.../malloc_count.so, then from the process (ctypes.CDLL(None)):
 *        mc_init() once, while nothing is armed; mc_arm(); ...; mc_disarm() -> count;
 *        mc_kept(), mc_kept_frame() for the stacks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MC_FRAMES 48
#define MC_KEPT 32

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);

/* dlsym itself allocates before the next allocator is known: those few bytes come from
 * here, zeroed, and are never freed. */
static _Alignas(16) char bootstrap[4096];
static size_t bootstrap_used;
static int resolving;

/* Set while this thread is inside the shim's own work (backtrace, dladdr), whose
 * allocations are not counted and must not recurse. initial-exec: the variable lives in
 * the static TLS block, so touching it never allocates. */
static __thread int busy __attribute__((tls_model("initial-exec")));

static atomic_int armed;
static atomic_long counted, downstream;
static uintptr_t ours_start, ours_end;
static void *push_calls[8];
static int push_call_count;

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept[MC_KEPT][MC_FRAMES];
static int kept_depth[MC_KEPT];
static size_t kept_size[MC_KEPT];
static long kept_seen[MC_KEPT];
static int kept_count;

static void resolve(void)
{
    if (next_malloc || resolving) return;
    resolving = 1;
    next_calloc = dlsym(RTLD_NEXT, "calloc");
    next_malloc = dlsym(RTLD_NEXT, "malloc");
    next_realloc = dlsym(RTLD_NEXT, "realloc");
    next_free = dlsym(RTLD_NEXT, "free");
    next_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    next_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    resolving = 0;
}

static void *bootstrap_alloc(size_t size)
{
    size_t bytes = (size + 15) & ~(size_t)15;
    if (bytes < size || bootstrap_used + bytes > sizeof bootstrap) return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += bytes;
    return p;
}

static int in_bootstrap(void *p)
{
    return (char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap;
}

static int is_push_call(void *address)
{
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_saddr) return 0;
    for (int i = 0; i < push_call_count; i++)
        if (info.dli_saddr == push_calls[i]) return 1;
    return 0;
}

static void keep(void **frames, int depth, size_t size)
{
    pthread_mutex_lock(&kept_lock);
    int k = 0;
    while (k < kept_count && (kept_depth[k] != depth || kept_size[k] != size ||
                              memcmp(kept[k], frames, sizeof(void *) * depth) != 0))
        k++;
    if (k < kept_count) {
        kept_seen[k]++;
    } else if (kept_count < MC_KEPT) {
        memcpy(kept[k], frames, sizeof(void *) * depth);
        kept_depth[k] = depth;
        kept_size[k] = size;
        kept_seen[k] = 1;
        kept_count++;
    }
    pthread_mutex_unlock(&kept_lock);
}

/* Called after every allocation while armed. */
static void record(size_t size)
{
    if (busy) return;
    busy = 1;
    void *frames[MC_FRAMES];
    int depth = backtrace(frames, MC_FRAMES);
    for (int i = 1; i < depth; i++) {
        uintptr_t address = (uintptr_t)frames[i];
        if (address >= ours_start && address < ours_end) {
            int pushed = 0;
            for (int j = 1; j < i && !pushed; j++) pushed = is_push_call(frames[j]);
            if (pushed) {
                atomic_fetch_add(&downstream, 1);
            } else {
                atomic_fetch_add(&counted, 1);
                keep(frames, depth, size);
            }
            break;
        }
    }
    busy = 0;
}

void *malloc(size_t size)
{
    resolve();
    if (!next_malloc) return bootstrap_alloc(size);
    void *p = next_malloc(size);
    if (atomic_load_explicit(&armed, memory_order_relaxed)) record(size);
    return p;
}

void *calloc(size_t count, size_t size)
{
    resolve();
    if (!next_calloc) return count && size > SIZE_MAX / count ? NULL : bootstrap_alloc(count * size);
    void *p = next_calloc(count, size);
    if (atomic_load_explicit(&armed, memory_order_relaxed)) record(count * size);
    return p;
}

void *realloc(void *old, size_t size)
{
    resolve();
    if (in_bootstrap(old)) {
        void *p = next_malloc(size);
        if (p) memcpy(p, old, size < sizeof bootstrap ? size : sizeof bootstrap);
        return p;
    }
    void *p = next_realloc(old, size);
    if (atomic_load_explicit(&armed, memory_order_relaxed)) record(size);
    return p;
}

void free(void *p)
{
    if (in_bootstrap(p)) return;
    resolve();
    next_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    resolve();
    int result = next_posix_memalign(out, alignment, size);
    if (atomic_load_explicit(&armed, memory_order_relaxed)) record(size);
    return result;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    resolve();
    void *p = next_aligned_alloc(alignment, size);
    if (atomic_load_explicit(&armed, memory_order_relaxed)) record(size);
    return p;
}

static int find_ours(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name, *suffix = "libgstreplaycast.so";
    size_t length = strlen(name), suffix_length = strlen(suffix);
    if (length < suffix_length || strcmp(name + length - suffix_length, suffix) != 0) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (!ours_start || start < ours_start) ours_start = start;
        if (start + segment->p_memsz > ours_end) ours_end = start + segment->p_memsz;
    }
    return 1;
}

/* Once the plugin is loaded: finds its code, resolves the push calls and warms up
 * backtrace (its first call loads libgcc_s, which allocates). 0 when the plugin is not
 * loaded. */
int mc_init(void)
{
    static const char *pushes[] = {"gst_pad_push", "gst_pad_push_list", "gst_aggregator_finish_buffer",
                                   "gst_aggregator_finish_buffer_list", "gst_pad_push_event"};
    ours_start = ours_end = 0;
    dl_iterate_phdr(find_ours, NULL);
    push_call_count = 0;
    for (size_t i = 0; i < sizeof pushes / sizeof *pushes; i++) {
        void *address = dlsym(RTLD_DEFAULT, pushes[i]);
        if (address) push_calls[push_call_count++] = address;
    }
    void *frames[4];
    backtrace(frames, 4);
    return ours_start != 0;
}

void mc_arm(void)
{
    atomic_store(&counted, 0);
    atomic_store(&downstream, 0);
    kept_count = 0;
    atomic_store(&armed, 1);
}

long mc_disarm(void)
{
    atomic_store(&armed, 0);
    return atomic_load(&counted);
}

long mc_downstream(void)
{
    return atomic_load(&downstream);
}

int mc_kept(void)
{
    return kept_count;
}

size_t mc_kept_size(int k)
{
    return k >= 0 && k < kept_count ? kept_size[k] : 0;
}

long mc_kept_seen(int k)
{
    return k >= 0 && k < kept_count ? kept_seen[k] : 0;
}

/* Frame i of kept stack k (the allocator's caller first) as "object\toffset\tsymbol", the
 * offset in hex from the object's base so that addr2line can name an unexported function.
 * 0 past the end. */
int mc_kept_frame(int k, int i, char *text, size_t size)
{
    if (k < 0 || k >= kept_count || i < 0 || i + 2 >= kept_depth[k]) return 0;
    void *address = kept[k][i + 2];
    Dl_info info;
    if (dladdr(address, &info) && info.dli_fname) {
        snprintf(text, size, "%s\t0x%lx\t%s", info.dli_fname,
                 (unsigned long)((uintptr_t)address - (uintptr_t)info.dli_fbase - 1),
                 info.dli_sname ? info.dli_sname : "");
    } else {
        snprintf(text, size, "?\t%p\t", address);
    }
    return 1;
}
