"""Experiments: compiled self-play, autoplay tournaments and leave training."""
