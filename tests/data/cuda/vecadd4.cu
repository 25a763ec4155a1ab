// Vector add four floats at a time through float4: NVRTC reads with ld.global.nc.v4.f32 and writes
// with st.global.v4.f32, one 16-byte access per thread and array.
extern "C" __global__ void vecadd4(const float4* __restrict__ a, const float4* __restrict__ b, float4* c, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}
