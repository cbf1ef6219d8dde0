// A stand-in for libnccl.so.2 (see mock_cuda.c): communicators and
// collectives are counted, not run. Each communicator records its size, its
// rank and the unique id it was made from, so that a test can check that
// the id reached every rank of a group (broadcast over MPI).
//
// Point-to-point transfers move their bytes for real, through files in
// $MOCK_NCCL_DIR (one per message, named by communicator, sender, receiver
// and the message's number between the two), paired in the order each rank
// queues them, as NCCL pairs them; a receive waits for its file (NCCL's
// receive waits on the stream; here the host waits, as the stand-in runs
// each call when it is queued). A receive whose message has another size
// counts as bad and fails.
//
// $MOCK_NCCL_SWAP swaps the messages of the first two receives from a peer.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct { char internal[128]; } ncclUniqueId;
typedef struct {
  char id[128];
  int rank, size;
  long sent[256], received[256];
} comm_t;
static long collectives, p2p, p2p_bytes, groups, destroyed, bad, ids;
static char inits[4096];

static void report(void) __attribute__((destructor));
static void report(void) {
  const char *path = getenv("MOCK_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  fprintf(f, "nccl: collectives %ld p2p %ld groups %ld destroyed %ld%s\n", collectives, p2p, groups, destroyed, inits);
  if (p2p)
    fprintf(f, "nccl-p2p: transfers %ld bytes %ld bad %ld\n", p2p, p2p_bytes, bad);
  fclose(f);
}

int ncclGetUniqueId(ncclUniqueId *id) {
  memset(id, 0, sizeof *id);
  snprintf(id->internal, sizeof id->internal, "id-from-pid-%d-%ld", (int)getpid(), ids++);
  return 0;
}
int ncclCommInitRank(void **comm, int n, ncclUniqueId id, int rank) {
  size_t used = strlen(inits);
  snprintf(inits + used, sizeof inits - used, " | comm %d of %d from %s", rank, n,
           strncmp(id.internal, "id-from-pid-", 12) == 0 ? "a broadcast id" : "a bad id");
  comm_t *c = calloc(1, sizeof *c);
  memcpy(c->id, id.internal, sizeof c->id);
  c->id[sizeof c->id - 1] = 0;
  c->rank = rank;
  c->size = n;
  *comm = c;
  return n > 0 && n <= 256 && rank >= 0 && rank < n ? 0 : 4;
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
static size_t element_size(int t) {
  switch (t) {
  case 0: case 1: return 1;
  case 2: case 3: case 7: return 4;
  case 4: case 5: case 8: return 8;
  case 6: case 9: return 2;
  default: return 0;
  }
}
// The file of message `number` from rank `from` to `to` of `c`.
static void message_path(char *path, size_t size, const comm_t *c, int from, int to, long number) {
  snprintf(path, size, "%s/%s.%d-%d.%ld", getenv("MOCK_NCCL_DIR"), c->id, from, to, number);
}
// Counts a transfer of `bytes` with `peer` of `c`; 0 (and bad) if the
// call is malformed or no folder is set for the messages.
static int transfer(const comm_t *c, int peer, int t, void *st, size_t bytes) {
  p2p++;
  p2p_bytes += bytes;
  if (!getenv("MOCK_NCCL_DIR") || !c || !st || peer < 0 || peer >= c->size || peer == c->rank || !element_size(t)) {
    bad++;
    return 0;
  }
  return 1;
}
int ncclSend(const void *b, size_t n, int t, int peer, void *comm, void *st) {
  comm_t *c = comm;
  size_t bytes = n * element_size(t);
  if (!transfer(c, peer, t, st, bytes))
    return 4;
  char path[4096], partial[4200];
  message_path(path, sizeof path, c, c->rank, peer, c->sent[peer]++);
  snprintf(partial, sizeof partial, "%s.partial", path);
  FILE *f = fopen(partial, "wb");
  if (!f || fwrite(b, 1, bytes, f) != bytes || fclose(f) || rename(partial, path)) {
    bad++;
    return 2;
  }
  return 0;
}
int ncclRecv(void *b, size_t n, int t, int peer, void *comm, void *st) {
  comm_t *c = comm;
  size_t bytes = n * element_size(t);
  if (!transfer(c, peer, t, st, bytes))
    return 4;
  // $MOCK_NCCL_SWAP pairs the first two receives from a peer with each
  // other's message: two ranks that queue in different orders, which the
  // runtime must notice.
  long number = c->received[peer]++;
  if (getenv("MOCK_NCCL_SWAP") && number < 2)
    number ^= 1;
  char path[4096];
  message_path(path, sizeof path, c, peer, c->rank, number);
  FILE *f = NULL;
  // Up to two minutes for the sender to get there.
  for (int tries = 0; tries < 120000 && !(f = fopen(path, "rb")); tries++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  if (!f) {
    bad++;
    return 6;
  }
  size_t got = fread(b, 1, bytes, f);
  int longer = fgetc(f) != EOF;
  fclose(f);
  unlink(path);
  if (got != bytes || longer) {
    bad++;
    return 5;
  }
  return 0;
}
int ncclGroupStart(void) { groups++; return 0; }
int ncclGroupEnd(void) { return 0; }
int ncclCommDestroy(void *c) { free(c); destroyed++; return 0; }
const char *ncclGetErrorString(int code) { (void)code; return "mock nccl error"; }
