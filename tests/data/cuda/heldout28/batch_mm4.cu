// A batch of 4 x 4 f32 matrix products C_b = A_b B_b (row-major, 16 floats a matrix, stored one after
// another), blocks of 256 threads. --nvcc-opt -DVAR, the work a thread does, is the one thing the runs
// vary (the same products, each c_ij = ((a_i0 b_0j + a_i1 b_1j) + a_i2 b_2j) + a_i3 b_3j):
//   0: a whole matrix: 8 float4 loads (A's rows and B's rows, 64-byte lane stride), 4 float4 stores;
//   1: a row of C: A's row as one float4, B's four rows as float4 (shared by 4 lanes), one float4 store;
//   2: an element of C: 4 scalar loads of A's row, 4 of B's column, one scalar store (coalesced).
#ifndef VAR
#define VAR 0
#endif
extern "C" __global__ void batch_mm4(const float4* A, const float4* B, float* C, unsigned batch) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
#if VAR == 0
  if (t >= batch) return;
  float4 b0 = B[4 * t], b1 = B[4 * t + 1], b2 = B[4 * t + 2], b3 = B[4 * t + 3];
  float4* c = (float4*)C + 4 * t;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float4 a = A[4 * t + i];
    float4 r;
    r.x = a.x * b0.x + a.y * b1.x + a.z * b2.x + a.w * b3.x;
    r.y = a.x * b0.y + a.y * b1.y + a.z * b2.y + a.w * b3.y;
    r.z = a.x * b0.z + a.y * b1.z + a.z * b2.z + a.w * b3.z;
    r.w = a.x * b0.w + a.y * b1.w + a.z * b2.w + a.w * b3.w;
    c[i] = r;
  }
#elif VAR == 1
  if (t >= batch * 4u) return;
  unsigned m = t >> 2;
  float4 a = A[t];
  float4 b0 = B[4 * m], b1 = B[4 * m + 1], b2 = B[4 * m + 2], b3 = B[4 * m + 3];
  float4 r;
  r.x = a.x * b0.x + a.y * b1.x + a.z * b2.x + a.w * b3.x;
  r.y = a.x * b0.y + a.y * b1.y + a.z * b2.y + a.w * b3.y;
  r.z = a.x * b0.z + a.y * b1.z + a.z * b2.z + a.w * b3.z;
  r.w = a.x * b0.w + a.y * b1.w + a.z * b2.w + a.w * b3.w;
  ((float4*)C)[t] = r;
#else
  if (t >= batch * 16u) return;
  unsigned m = t >> 4, i = (t >> 2) & 3u, j = t & 3u;
  const float* a = (const float*)A + 16 * m + 4 * i;
  const float* b = (const float*)B + 16 * m + j;
  C[t] = a[0] * b[0] + a[1] * b[4] + a[2] * b[8] + a[3] * b[12];
#endif
}
