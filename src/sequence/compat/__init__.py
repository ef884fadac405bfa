"""Bridges to other Sequence frameworks (a front end: it speaks their interfaces to our bots).

- :mod:`sequence.compat.comp90054`: the University of Melbourne AI course's framework.
"""
