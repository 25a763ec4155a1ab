// Two fields of an array of structs: element i is a struct of S floats (--nvcc-opt -DS=1, 4 or 16: 4-,
// 16- and 64-byte structs), and out[i] is the product of its first field and the field S / 2 (the same
// one when S = 1). The outputs and the arithmetic are the same in every run; the structs spread the
// warp's reads over 128 bytes, 512 bytes in 16-byte pieces, or 32 64-byte structs whose two fields lie
// in different 32-byte sectors (two sectors per element, 2 KiB a warp).
#ifndef S
#define S 1
#endif
extern "C" __global__ void aos_fields(const float* p, float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float* e = p + (unsigned long long)i * S;
    out[i] = e[0] * e[S / 2];
  }
}
