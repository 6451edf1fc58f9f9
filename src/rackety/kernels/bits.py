"""The bits of a KWG node (FORMATS.md section 2), without numba, for the code
that reads graphs outside the kernels; `rackety.kernels.nodes` has the
accessors and re-exports these."""

ARC = 0x3FFFFF  # bits 0-21: the first node of the child run (0: none)
IS_END = 0x400000  # bit 22: the last node of its run
ACCEPTS = 0x800000  # bit 23: the string read to here is a word
DAWG_ROOT = 0  # the pseudo-node whose arc is the DAWG's root run
GADDAG_ROOT = 1
