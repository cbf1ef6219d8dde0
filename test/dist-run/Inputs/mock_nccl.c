// A stand-in for libnccl.so.2 (see mock_cuda.c): communicators and
// collectives are counted, not run. Each communicator records its size, its
// rank and the unique id it was made from, so that a test can check that
// the id reached every rank of a group (broadcast over MPI).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { char internal[128]; } ncclUniqueId;
static long collectives, p2p, groups, destroyed;
static char inits[4096];

static void report(void) __attribute__((destructor));
static void report(void) {
  const char *path = getenv("MOCK_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  fprintf(f, "nccl: collectives %ld p2p %ld groups %ld destroyed %ld%s\n", collectives, p2p, groups, destroyed, inits);
  fclose(f);
}

int ncclGetUniqueId(ncclUniqueId *id) {
  memset(id, 0, sizeof *id);
  snprintf(id->internal, sizeof id->internal, "id-from-pid-%d", (int)getpid());
  return 0;
}
int ncclCommInitRank(void **comm, int n, ncclUniqueId id, int rank) {
  size_t used = strlen(inits);
  snprintf(inits + used, sizeof inits - used, " | comm %d of %d from %s", rank, n,
           strncmp(id.internal, "id-from-pid-", 12) == 0 ? "a broadcast id" : "a bad id");
  *comm = malloc(1);
  return 0;
}
int ncclAllReduce(const void *s, void *r, size_t n, int t, int op, void *c, void *st) {
  (void)s; (void)r; (void)n;
  collectives++;
  return (t == 7 || t == 8) && op >= 0 && op <= 4 && c && st ? 0 : 4;
}
int ncclReduceScatter(const void *s, void *r, size_t n, int t, int op, void *c, void *st) {
  return ncclAllReduce(s, r, n, t, op, c, st);
}
int ncclAllGather(const void *s, void *r, size_t n, int t, void *c, void *st) {
  return ncclAllReduce(s, r, n, t, 0, c, st);
}
int ncclSend(const void *b, size_t n, int t, int peer, void *c, void *st) {
  (void)b; (void)n; (void)t; (void)peer; (void)c; (void)st;
  p2p++;
  return 0;
}
int ncclRecv(void *b, size_t n, int t, int peer, void *c, void *st) { return ncclSend(b, n, t, peer, c, st); }
int ncclGroupStart(void) { groups++; return 0; }
int ncclGroupEnd(void) { return 0; }
int ncclCommDestroy(void *c) { free(c); destroyed++; return 0; }
const char *ncclGetErrorString(int code) { (void)code; return "mock nccl error"; }
