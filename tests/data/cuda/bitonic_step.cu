// One step (j, k) of a bitonic sort over n = 2^m keys, one thread per key: the thread pairs with
// i ^ j and, if it is the lower of the pair, orders the two keys up or down by bit k of i.
extern "C" __global__ void bitonic_step(unsigned* keys, unsigned j, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ j;
  if (partner > i) {
    unsigned a = keys[i], b = keys[partner];
    bool up = (i & k) == 0;
    if ((up && a > b) || (!up && a < b)) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}
