// A stand-in for libcublasLt.so.13 on machines without a GPU: the cuBLASLt
// calls the dist runtime makes, computed on the host in double precision
// (f32 or bf16 inputs, f32 output; TF32 computed exactly), so that the
// layouts, transposes and batch strides the runtime passes are checked by
// the results they give. It checks each call against cuBLASLt's rules
// (column-major layouts with ld >= rows, shapes that agree, D in place of
// C, an algorithm the heuristic gave for these very descriptors, matrices
// as aligned as the preference promised, a stream, a bias epilogue's f32
// vector of D's rows), and, where the stand-in
// driver (mock_cuda.c) is loaded, that every matrix it touches lies in one
// device block. With MOCK_CUBLASLT_COMPUTE=0 it checks without computing
// (the stand-in driver runs no kernel, so a step's values are not worth
// the time). At exit it appends one line of counts to $MOCK_CUDA_LOG:
// heuristic queries, products (batched ones count once), bad calls and
// matrices in host memory.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long heuristics, matmuls, bad, host;

static void report(void) __attribute__((destructor));
static void report(void) {
  const char *path = getenv("MOCK_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  fprintf(f, "cublaslt: heuristics %ld matmuls %ld bad %ld host %ld\n", heuristics, matmuls, bad, host);
  fclose(f);
}

enum { R_32F = 0, R_16BF = 14, COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77 };
enum { SUCCESS = 0, INVALID_VALUE = 7 };
enum { EPILOGUE_DEFAULT = 1, EPILOGUE_BIAS = 4 };

// The bias pointer is last: an algorithm is chosen for the rest (the
// digest), and the pointer changes from call to call.
typedef struct { int compute, scale, trans[2], epilogue, bias_type; const float *bias; } Desc;
typedef struct { int type; uint64_t rows, cols; int64_t ld; int count; int64_t stride; } Layout;
typedef struct { uint64_t data[8]; } Algo;
typedef struct { uint64_t workspace; uint32_t alignment[4]; } Preference;
typedef struct { Algo algo; size_t workspace; int state; float waves; int reserved[4]; } Heuristic;

static int fail(void) {
  bad++;
  return INVALID_VALUE;
}

int cublasLtCreate(void **handle) { *handle = malloc(1); return SUCCESS; }
const char *cublasLtGetStatusString(int status) { return status ? "CUBLAS_STATUS_INVALID_VALUE (stand-in)" : "CUBLAS_STATUS_SUCCESS"; }

int cublasLtMatmulDescCreate(Desc **desc, int compute, int scale) {
  if ((compute != COMPUTE_32F && compute != COMPUTE_32F_FAST_TF32) || scale != R_32F)
    return fail();
  *desc = calloc(1, sizeof(Desc));
  (*desc)->compute = compute;
  (*desc)->scale = scale;
  (*desc)->epilogue = EPILOGUE_DEFAULT;
  (*desc)->bias_type = -1;
  return SUCCESS;
}
// Transposes (3, 4), the epilogue (7: default or bias), the bias pointer
// (8) and its type (26: f32).
int cublasLtMatmulDescSetAttribute(Desc *desc, int attr, const void *value, size_t bytes) {
  if (attr == 8 && bytes == sizeof(void *)) {
    memcpy(&desc->bias, value, sizeof(void *));
    return SUCCESS;
  }
  int v = bytes == 4 ? *(const int *)value : -1;
  if ((attr == 3 || attr == 4) && (v == 0 || v == 1))
    desc->trans[attr - 3] = v;
  else if (attr == 7 && (v == EPILOGUE_DEFAULT || v == EPILOGUE_BIAS))
    desc->epilogue = v;
  else if (attr == 26 && v == R_32F)
    desc->bias_type = v;
  else
    return fail();
  return SUCCESS;
}
int cublasLtMatrixLayoutCreate(Layout **layout, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if ((type != R_32F && type != R_16BF) || !rows || !cols || ld < (int64_t)rows)
    return fail();
  *layout = calloc(1, sizeof(Layout));
  **layout = (Layout){type, rows, cols, ld, 1, 0};
  return SUCCESS;
}
int cublasLtMatrixLayoutSetAttribute(Layout *layout, int attr, const void *value, size_t bytes) {
  if (attr == 5 && bytes == 4 && *(const int *)value >= 1)
    layout->count = *(const int *)value;
  else if (attr == 6 && bytes == 8 && *(const int64_t *)value >= 0)
    layout->stride = *(const int64_t *)value;
  else
    return fail();
  return SUCCESS;
}
int cublasLtMatmulPreferenceCreate(Preference **preference) {
  *preference = calloc(1, sizeof(Preference));
  for (int i = 0; i < 4; i++)
    (*preference)->alignment[i] = 256; // cuBLASLt's default
  return SUCCESS;
}
int cublasLtMatmulPreferenceSetAttribute(Preference *preference, int attr, const void *value, size_t bytes) {
  if (attr == 1 && bytes == 8) {
    memcpy(&preference->workspace, value, 8);
    return SUCCESS;
  }
  uint32_t alignment = bytes == 4 ? *(const uint32_t *)value : 0;
  if (attr < 5 || attr > 8 || !alignment || (alignment & (alignment - 1)) || alignment > 256)
    return fail();
  preference->alignment[attr - 5] = alignment;
  return SUCCESS;
}
int cublasLtMatmulPreferenceDestroy(Preference *preference) {
  free(preference);
  return SUCCESS;
}

// A digest of the descriptors an algorithm was chosen for (FNV-1a).
static uint64_t digest(const Desc *d, const Layout *a, const Layout *b, const Layout *c) {
  const void *parts[] = {d, a, b, c};
  const size_t sizes[] = {offsetof(Desc, bias), sizeof(Layout), sizeof(Layout), sizeof(Layout)};
  uint64_t h = 1469598103934665603ull;
  for (int p = 0; p < 4; p++)
    for (size_t i = 0; i < sizes[p]; i++)
      h = (h ^ ((const unsigned char *)parts[p])[i]) * 1099511628211ull;
  return h;
}

// The product's sizes if the layouts and the descriptor agree: op(A) is
// m x k, op(B) k x n, C and D m x n, one batch count (or 1) throughout.
static int shape(const Desc *d, const Layout *a, const Layout *b, const Layout *c, const Layout *dl, uint64_t mnk[3]) {
  uint64_t am = d->trans[0] ? a->cols : a->rows, ak = d->trans[0] ? a->rows : a->cols;
  uint64_t bk = d->trans[1] ? b->cols : b->rows, bn = d->trans[1] ? b->rows : b->cols;
  if (ak != bk || c->rows != am || c->cols != bn || memcmp(c, dl, sizeof(Layout)) || a->type != b->type ||
      c->type != R_32F || a->count != c->count || b->count != c->count || (c->count > 1 && !c->stride))
    return 0;
  mnk[0] = am, mnk[1] = bn, mnk[2] = ak;
  return 1;
}

// The one algorithm of the stand-in, for these descriptors and the
// alignments the preference promised (A, B, C, D).
int cublasLtMatmulAlgoGetHeuristic(void *handle, Desc *d, Layout *a, Layout *b, Layout *c, Layout *dl,
                                   Preference *pref, int requested, Heuristic *results, int *found) {
  uint64_t mnk[3];
  heuristics++;
  if (!handle || !pref || requested < 1 || !shape(d, a, b, c, dl, mnk))
    return fail();
  memset(results, 0, sizeof(Heuristic));
  results->algo.data[0] = 0x57a9d;
  results->algo.data[1] = digest(d, a, b, c);
  for (int i = 0; i < 4; i++)
    results->algo.data[2 + i] = pref->alignment[i];
  *found = 1;
  return SUCCESS;
}

// Whether every matrix of a layout at `base` starts at a multiple of
// `alignment` bytes.
static int aligned(const Layout *l, const void *base, uint64_t alignment) {
  size_t size = l->type == R_32F ? 4 : 2;
  return (uintptr_t)base % alignment == 0 && (l->count == 1 || (l->stride * size) % alignment == 0);
}

static double element(const Layout *l, const void *base, uint64_t batch, uint64_t r, uint64_t c) {
  uint64_t i = batch * l->stride + c * l->ld + r;
  if (l->type == R_32F)
    return ((const float *)base)[i];
  uint32_t bits = (uint32_t)((const uint16_t *)base)[i] << 16;
  float v;
  memcpy(&v, &bits, 4);
  return v;
}

// Whether every element a layout addresses lies in one device block (host
// memory is counted, an overrun is bad).
static void bounds(const Layout *l, const void *base) {
  static int (*holds)(uintptr_t, size_t);
  if (!holds)
    holds = (int (*)(uintptr_t, size_t))dlsym(RTLD_DEFAULT, "mock_cuda_holds");
  if (!holds)
    return;
  size_t size = l->type == R_32F ? 4 : 2;
  size_t last = (size_t)(l->count - 1) * l->stride + (l->cols - 1) * l->ld + l->rows;
  switch (holds((uintptr_t)base, last * size)) {
  case 0: host++; break;
  case -1: bad++; break;
  }
}

int cublasLtMatmul(void *handle, Desc *d, const float *alpha, const void *A, Layout *a, const void *B, Layout *b,
                   const float *beta, const void *C, Layout *c, void *D, Layout *dl, const Algo *algo, void *workspace,
                   size_t workspace_bytes, void *stream) {
  uint64_t mnk[3];
  matmuls++;
  if (!handle || !stream || !algo || algo->data[0] != 0x57a9d || algo->data[1] != digest(d, a, b, c) || C != D ||
      !shape(d, a, b, c, dl, mnk) || (workspace_bytes && !workspace) || !aligned(a, A, algo->data[2]) ||
      !aligned(b, B, algo->data[3]) || !aligned(c, C, algo->data[4]) || !aligned(dl, D, algo->data[5]))
    return fail();
  int with_bias = d->epilogue == EPILOGUE_BIAS;
  if (with_bias && (!d->bias || d->bias_type != R_32F || (uintptr_t)d->bias % 4))
    return fail();
  bounds(a, A), bounds(b, B), bounds(c, C);
  if (with_bias) {
    Layout vector = {R_32F, mnk[0], 1, (int64_t)mnk[0], 1, 0};
    bounds(&vector, d->bias);
  }
  const char *compute = getenv("MOCK_CUBLASLT_COMPUTE");
  if (compute && !strcmp(compute, "0"))
    return SUCCESS;
  for (int n = 0; n < c->count; n++)
    for (uint64_t j = 0; j < mnk[1]; j++)
      for (uint64_t i = 0; i < mnk[0]; i++) {
        double sum = 0;
        for (uint64_t l = 0; l < mnk[2]; l++) {
          double x = d->trans[0] ? element(a, A, n, l, i) : element(a, A, n, i, l);
          double y = d->trans[1] ? element(b, B, n, j, l) : element(b, B, n, l, j);
          sum += x * y;
        }
        float *out = (float *)D + n * c->stride + j * c->ld + i;
        // C is not read where beta is 0 (it may hold anything).
        double prior = *beta == 0 ? 0 : *beta * *out;
        *out = (float)(*alpha * sum + prior + (with_bias ? d->bias[i] : 0));
      }
  return SUCCESS;
}
