//! Tests of the geometry pass on small models built here.
