"""The compiled core: numba kernels over flat numpy arrays (no rackety object
crosses into them). See docs/ARCHITECTURE.md."""
