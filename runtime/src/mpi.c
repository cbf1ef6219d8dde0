// The runtime's only contact with MPI. Communicators and requests are kept
// in tables here and named by int64 indices, so the Rust side never sees
// an MPI handle type (an int in MPICH, a pointer in Open MPI). Every call
// returns the MPI error code; errors are returned, not fatal.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE // sched_getaffinity and the CPU_ALLOC sets
#endif
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static MPI_Comm *comms;
static int64_t num_comms, cap_comms;
static MPI_Request *requests;
static int64_t cap_requests;
static int yield_while_waiting;

enum { DIST_F32 = 0, DIST_F64 = 1, DIST_I32 = 2, DIST_I64 = 3, DIST_BF16 = 4, DIST_BOOL = 5 };
enum { DIST_SUM = 0, DIST_MAX = 2, DIST_MIN = 3 };

// MPI has no bfloat16: its bits move as 16-bit integers; booleans (one byte
// each) as bytes.
static MPI_Datatype datatype(int dtype) {
  switch (dtype) {
  case DIST_F64: return MPI_DOUBLE;
  case DIST_I32: return MPI_INT32_T;
  case DIST_I64: return MPI_INT64_T;
  case DIST_BF16: return MPI_UINT16_T;
  case DIST_BOOL: return MPI_UINT8_T;
  default: return MPI_FLOAT;
  }
}

// bfloat16 reductions: each pair of operands combined in f32 and rounded to
// the nearest bfloat16 (ties to even), as the runtime's Rust side rounds.
static float bf16_value(uint16_t bits) {
  union { uint32_t u; float f; } v = {.u = (uint32_t)bits << 16};
  return v.f;
}

static uint16_t bf16_bits(float value) {
  union { float f; uint32_t u; } v = {.f = value};
  if (value != value)
    return (uint16_t)((v.u >> 16) | 0x40);
  return (uint16_t)((v.u + 0x7fff + ((v.u >> 16) & 1)) >> 16);
}

#define BF16_OP(name, combine)                                                 \
  static void name(void *in, void *inout, int *len, MPI_Datatype *type) {      \
    (void)type;                                                                \
    const uint16_t *a = in;                                                    \
    uint16_t *b = inout;                                                       \
    for (int i = 0; i < *len; ++i) {                                           \
      float x = bf16_value(a[i]), y = bf16_value(b[i]);                        \
      b[i] = bf16_bits(combine);                                               \
    }                                                                          \
  }
BF16_OP(bf16_sum, x + y)
BF16_OP(bf16_max, x > y ? x : y)
BF16_OP(bf16_min, x < y ? x : y)

static MPI_Op bf16_ops[3] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL};

static MPI_Op op(int kind, int dtype) {
  if (dtype == DIST_BF16) {
    int slot = kind == DIST_MAX ? 1 : kind == DIST_MIN ? 2 : 0;
    if (bf16_ops[slot] == MPI_OP_NULL) {
      MPI_User_function *functions[3] = {bf16_sum, bf16_max, bf16_min};
      MPI_Op_create(functions[slot], 1, &bf16_ops[slot]);
    }
    return bf16_ops[slot];
  }
  switch (kind) {
  case DIST_MAX: return MPI_MAX;
  case DIST_MIN: return MPI_MIN;
  default: return MPI_SUM;
  }
}

// The processes of this job on this machine, as the launcher says (MPICH's
// Hydra and Intel MPI, Open MPI), else the whole world's.
static int processes_here(void) {
  const char *names[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"};
  for (int i = 0; i < 2; ++i) {
    const char *value = getenv(names[i]);
    if (value && atoi(value) > 0)
      return atoi(value);
  }
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// The cores this process may run on (its affinity, so a cpuset counts),
// else the machine's online ones.
static int cores(void) {
#ifdef __linux__
  long possible = sysconf(_SC_NPROCESSORS_CONF);
  size_t n = possible > 0 ? (size_t)possible : 1;
  cpu_set_t *cpus = CPU_ALLOC(n);
  size_t size = CPU_ALLOC_SIZE(n);
  int count = cpus && sched_getaffinity(0, size, cpus) == 0 ? CPU_COUNT_S(size, cpus) : 0;
  CPU_FREE(cpus);
  if (count > 0)
    return count;
#endif
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (int)online : 1;
}

int dist_mpi_init(void) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int err = initialized ? MPI_SUCCESS : MPI_Init(NULL, NULL);
  if (err != MPI_SUCCESS)
    return err;
  yield_while_waiting = processes_here() > cores();
  return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

int dist_mpi_finalize(void) {
  for (int i = 0; i < 3; ++i)
    if (bf16_ops[i] != MPI_OP_NULL)
      MPI_Op_free(&bf16_ops[i]);
  for (int64_t i = 0; i < num_comms; ++i)
    MPI_Comm_free(&comms[i]);
  free(comms);
  free(requests);
  comms = NULL;
  requests = NULL;
  num_comms = cap_comms = cap_requests = 0;
  return MPI_Finalize();
}

// The MPI this shim is compiled against: a launcher of another one starts
// N singletons instead of one job of N.
const char *dist_mpi_flavour(void) {
#if defined(OPEN_MPI)
  return "Open MPI";
#elif defined(MPICH)
  return "MPICH";
#else
  return "an unknown MPI";
#endif
}

int dist_mpi_rank(int *rank) { return MPI_Comm_rank(MPI_COMM_WORLD, rank); }
int dist_mpi_size(int *size) { return MPI_Comm_size(MPI_COMM_WORLD, size); }

// The communicator of the world ranks `ranks` (in that order), made by
// them alone (MPI_Comm_create_group): devices on different pipeline stages
// run different code, so a group cannot wait for the whole world.
int dist_mpi_comm_create(const int *ranks, int n, int64_t *comm) {
  if (num_comms == cap_comms) {
    cap_comms = cap_comms ? 2 * cap_comms : 8;
    comms = realloc(comms, cap_comms * sizeof(MPI_Comm));
  }
  MPI_Group world, group;
  int err = MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (err == MPI_SUCCESS)
    err = MPI_Group_incl(world, n, ranks, &group);
  if (err == MPI_SUCCESS) {
    err = MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &comms[num_comms]);
    MPI_Group_free(&group);
  }
  MPI_Group_free(&world);
  if (err != MPI_SUCCESS)
    return err;
  MPI_Comm_set_errhandler(comms[num_comms], MPI_ERRORS_RETURN);
  *comm = num_comms++;
  return MPI_SUCCESS;
}

static MPI_Request *request(int64_t req) {
  if (req >= cap_requests) {
    int64_t cap = cap_requests ? cap_requests : 16;
    while (cap <= req)
      cap *= 2;
    requests = realloc(requests, cap * sizeof(MPI_Request));
    cap_requests = cap;
  }
  return &requests[req];
}

// Completes `r`, started with error code `err`. MPI_Wait spins; when this
// machine's processes outnumber its cores, a spinning process holds the core
// its peer needs to send what it waits for (an 8-process MoE step on 2 cores
// took 1.2 s a step instead of about 40 ms), so then every wait polls and
// yields. Blocking collectives are their nonblocking forms completed here
// on every rank, yielding or not: ranks that decide differently (another
// machine, another affinity) still call matching forms.
static int finish(int err, MPI_Request *r) {
  if (err != MPI_SUCCESS || !yield_while_waiting)
    return err == MPI_SUCCESS ? MPI_Wait(r, MPI_STATUS_IGNORE) : err;
  for (int done = 0; err == MPI_SUCCESS && !done; sched_yield())
    err = MPI_Test(r, &done, MPI_STATUS_IGNORE);
  return err;
}

// `req` < 0: blocking (the nonblocking form completed by finish); otherwise
// the nonblocking form into slot `req`.
int dist_mpi_allreduce(int64_t comm, const void *in, void *out, int64_t n, int dtype, int kind, int64_t req) {
  MPI_Request local;
  MPI_Request *r = req < 0 ? &local : request(req);
  int err =
      MPI_Iallreduce(in == out ? MPI_IN_PLACE : in, out, (int)n, datatype(dtype), op(kind, dtype), comms[comm], r);
  return req < 0 ? finish(err, r) : err;
}

int dist_mpi_reduce_scatter(int64_t comm, const void *in, void *out, int64_t n, int dtype, int kind, int64_t req) {
  MPI_Request local;
  MPI_Request *r = req < 0 ? &local : request(req);
  int err = MPI_Ireduce_scatter_block(in, out, (int)n, datatype(dtype), op(kind, dtype), comms[comm], r);
  return req < 0 ? finish(err, r) : err;
}

int dist_mpi_allgather(int64_t comm, const void *in, void *out, int64_t n, int dtype, int64_t req) {
  MPI_Request local;
  MPI_Request *r = req < 0 ? &local : request(req);
  int err = MPI_Iallgather(in, (int)n, datatype(dtype), out, (int)n, datatype(dtype), comms[comm], r);
  return req < 0 ? finish(err, r) : err;
}

int dist_mpi_alltoall(int64_t comm, const void *in, void *out, int64_t n, int dtype, int64_t req) {
  MPI_Request local;
  MPI_Request *r = req < 0 ? &local : request(req);
  int err = MPI_Ialltoall(in, (int)n, datatype(dtype), out, (int)n, datatype(dtype), comms[comm], r);
  return req < 0 ? finish(err, r) : err;
}

int dist_mpi_wait(int64_t req) { return finish(MPI_SUCCESS, request(req)); }

int dist_mpi_test(int64_t req, int *done) { return MPI_Test(request(req), done, MPI_STATUS_IGNORE); }

// Point to point within a group's communicator, in bytes: the send into
// slot `req` (it completes by dist_mpi_test or dist_mpi_wait), the receive
// blocking (completed by finish).
int dist_mpi_isend(int64_t comm, const void *buf, int64_t bytes, int peer, int tag, int64_t req) {
  return MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, comms[comm], request(req));
}

int dist_mpi_recv(int64_t comm, void *buf, int64_t bytes, int peer, int tag) {
  MPI_Request r;
  return finish(MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, comms[comm], &r), &r);
}

void dist_mpi_error_string(int code, char *buf, int len) {
  int n = 0;
  if (MPI_Error_string(code, buf, &n) != MPI_SUCCESS || len <= 0)
    n = 0;
  buf[n < len ? n : len - 1] = 0;
}

void dist_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int dist_mpi_bcast(int64_t comm, void *buf, int64_t bytes, int root) {
  MPI_Request r;
  return finish(MPI_Ibcast(buf, (int)bytes, MPI_BYTE, root, comms[comm], &r), &r);
}
