"""placeholder"""
def to_tei(*a):
    raise NotImplementedError
