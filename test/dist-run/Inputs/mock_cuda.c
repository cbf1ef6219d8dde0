// A stand-in for libcuda.so.1 on machines without a GPU: the driver calls
// the dist runtime makes, on host memory, with launches counted but not
// run. It checks what it can of each call and, at exit, appends one line
// of counts per process to $MOCK_CUDA_LOG, so that a test can check that
// the runtime's launch path (module cache, streams, events, memory) is
// exercised as designed: allocations (of which managed), device fills,
// host synchronisations (a stream's or an event's), launches. Launches,
// fills and copies queued while a stream is captured count as captured
// (and do nothing); each launch of the graph counts as a replay.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long loads, launches, allocs, managed, frees, memsets, copies, transfers, events, syncs, bad;
static long captured, graphs, replays;
static int capturing;
static int device = -1;
static long live_bytes;

static void report(void) __attribute__((destructor));
static void report(void) {
  const char *path = getenv("MOCK_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  fprintf(f, "cuda: device %d loads %ld launches %ld allocs %ld managed %ld frees %ld memsets %ld copies %ld transfers %ld events %ld syncs %ld bad %ld captured %ld graphs %ld replays %ld\n",
          device, loads, launches, allocs, managed, frees, memsets, copies, transfers, events, syncs, bad, captured, graphs, replays);
  fclose(f);
}

int cuInit(unsigned flags) { return flags == 0 ? 0 : 1; }
// $MOCK_CUDA_DEVICES GPUs (default 1).
static int count(void) { return getenv("MOCK_CUDA_DEVICES") ? atoi(getenv("MOCK_CUDA_DEVICES")) : 1; }
int cuDeviceGetCount(int *n) { *n = count(); return 0; }
int cuDeviceGet(int *d, int ordinal) {
  *d = device = ordinal;
  return ordinal >= 0 && ordinal < count() ? 0 : 101;
}
int cuDevicePrimaryCtxRetain(void **ctx, int d) { *ctx = (void *)(intptr_t)(d + 1); return 0; }
int cuCtxSetCurrent(void *ctx) { return ctx ? 0 : 201; }
int cuModuleLoadData(void **m, const void *image) {
  const char *ptx = image;
  if (!strstr(ptx, ".entry") || !strstr(ptx, ".target sm_"))
    bad++;
  loads++;
  *m = malloc(1);
  return 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
  if (!m || !name[0])
    bad++;
  *f = strdup(name);
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned smem, void *stream, void **params, void **extra) {
  if (!f || !stream || !params || extra || !gx || !gy || !gz || bx * by * bz == 0 ||
      bx * by * bz > 1024 || smem)
    bad++;
  if (capturing)
    captured++;
  else
    launches++;
  return 0;
}
int cuStreamCreate(void **s, unsigned flags) { *s = malloc(1); return flags == 1 ? 0 : 1; }
int cuStreamSynchronize(void *s) {
  // Waiting for a stream under capture is an error (900, not permitted).
  if (capturing)
    bad++;
  syncs++;
  return s && !capturing ? 0 : 900;
}
int cuStreamBeginCapture_v2(void *s, unsigned mode) {
  if (!s || capturing || mode > 2)
    bad++;
  capturing = 1;
  return 0;
}
int cuStreamEndCapture(void *s, void **graph) {
  if (!s || !capturing)
    bad++;
  capturing = 0;
  *graph = malloc(1);
  return 0;
}
int cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
  if (!graph || flags)
    bad++;
  graphs++;
  *exec = malloc(1);
  return 0;
}
int cuGraphLaunch(void *exec, void *s) {
  if (!exec || !s || capturing)
    bad++;
  replays++;
  return 0;
}
int cuGraphDestroy(void *graph) { free(graph); return 0; }
int cuStreamWaitEvent(void *s, void *e, unsigned flags) { return s && e && !flags ? 0 : 400; }
int cuEventCreate(void **e, unsigned flags) { (void)flags; *e = malloc(1); events++; return 0; }
int cuEventRecord(void *e, void *s) { return e && s ? 0 : 400; }
int cuEventSynchronize(void *e) { syncs++; return e ? 0 : 400; }
int cuEventQuery(void *e) { return e ? 0 : 400; }
int cuEventDestroy_v2(void *e) { free(e); events--; return 0; }
int cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 0; return a && b ? 0 : 400; }
// The live blocks, for the cuBLASLt stand-in's bounds checks
// (mock_cuda_holds).
#define MAX_BLOCKS 4096
static struct { uintptr_t base; size_t bytes; } blocks[MAX_BLOCKS];
static int allocate(uint64_t *p, size_t bytes) {
  if (!bytes)
    bad++;
  // cuMemAlloc's blocks start at multiples of 256 bytes, which cuBLASLt's
  // heuristic is told; calloc's would not.
  size_t rounded = (bytes + 255) / 256 * 256;
  *p = (uint64_t)(uintptr_t)aligned_alloc(256, rounded ? rounded : 256);
  if (*p)
    memset((void *)(uintptr_t)*p, 0, rounded);
  allocs++;
  for (int i = 0; i < MAX_BLOCKS; i++)
    if (!blocks[i].base) {
      blocks[i].base = (uintptr_t)*p;
      blocks[i].bytes = bytes;
      return 0;
    }
  bad++;
  return 0;
}
// 1 if [p, p + bytes) lies in one live block, 0 if it touches none (host
// memory), -1 if it overruns one.
int mock_cuda_holds(uintptr_t p, size_t bytes) {
  for (int i = 0; i < MAX_BLOCKS; i++)
    if (blocks[i].base && p >= blocks[i].base && p < blocks[i].base + blocks[i].bytes)
      return p + bytes <= blocks[i].base + blocks[i].bytes ? 1 : -1;
  return 0;
}
int cuMemAllocManaged(uint64_t *p, size_t bytes, unsigned flags) {
  if (flags != 1)
    bad++;
  managed++;
  return allocate(p, bytes);
}
int cuMemAlloc_v2(uint64_t *p, size_t bytes) { return allocate(p, bytes); }
int cuMemFree_v2(uint64_t p) {
  for (int i = 0; i < MAX_BLOCKS; i++)
    if (blocks[i].base == (uintptr_t)p)
      blocks[i].base = 0;
  free((void *)(uintptr_t)p);
  frees++;
  return 0;
}
// Pinned host memory: plain host memory here, as device memory is.
int cuMemAllocHost_v2(void **p, size_t bytes) {
  *p = calloc(1, bytes ? bytes : 1);
  return bytes ? 0 : 1;
}
int cuMemFreeHost(void *p) { free(p); return 0; }
int cuMemsetD32Async(uint64_t p, unsigned value, size_t n, void *s) {
  uint32_t *words = (uint32_t *)(uintptr_t)p;
  if (!words || !s)
    bad++;
  if (capturing) {
    captured++;
    return 0;
  }
  for (size_t i = 0; words && i < n; i++)
    words[i] = value;
  memsets++;
  return 0;
}
int cuMemsetD16Async(uint64_t p, unsigned short value, size_t n, void *s) {
  uint16_t *halves = (uint16_t *)(uintptr_t)p;
  if (!halves || !s)
    bad++;
  if (capturing) {
    captured++;
    return 0;
  }
  for (size_t i = 0; halves && i < n; i++)
    halves[i] = value;
  memsets++;
  return 0;
}
int cuMemcpyAsync(uint64_t target, uint64_t source, size_t bytes, void *s) {
  if (!target || !source || !s)
    bad++;
  if (capturing) {
    captured++;
    return 0;
  }
  if (target && source)
    memmove((void *)(uintptr_t)target, (void *)(uintptr_t)source, bytes);
  copies++;
  return 0;
}
int cuMemcpyHtoD_v2(uint64_t target, const void *source, size_t bytes) {
  if (!target || !source)
    bad++;
  else
    memmove((void *)(uintptr_t)target, source, bytes);
  transfers++;
  return 0;
}
int cuMemcpyDtoH_v2(void *target, uint64_t source, size_t bytes) {
  if (!target || !source)
    bad++;
  else
    memmove(target, (const void *)(uintptr_t)source, bytes);
  transfers++;
  return 0;
}
int cuGetErrorString(int code, const char **s) { (void)code; *s = "mock error"; return 0; }
