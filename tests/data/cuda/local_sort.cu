// Each thread sorts its own k (at most 8) values by insertion in a per-thread array. The indices
// are run-time values, so NVRTC keeps the array in local memory (ld.local/st.local); the inner
// while loop runs a different number of times in each lane.
extern "C" __global__ void local_sort(const int* in, int* out, int k) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v[8];
  for (int i = 0; i < k; ++i) v[i] = in[t * k + i];
  for (int i = 1; i < k; ++i) {
    int x = v[i], j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  for (int i = 0; i < k; ++i) out[t * k + i] = v[i];
}
