/* The arguments of a collective call as the shim screens them: the sizes
 * of datatypes, the standard's table of predefined reduction operators
 * (which types each is defined on; every one commutes), and the MPI
 * library's rule for NULL buffers.  One table of each, used by every
 * collective and entry point. */
#ifndef LOGP_SHIM_ARGS_H
#define LOGP_SHIM_ARGS_H

#include <stddef.h>

#include <mpi.h>

/* Bytes of `count` elements of dt into *bytes if the call is one the
 * shim can run: a communicator and a datatype that are not null, count >
 * 0 and a nonzero size, at most INT_MAX bytes (the executors' counts).
 * The common predefined types' sizes are cached (no PMPI call).  Returns
 * nonzero if so. */
int logp_args_bytes(MPI_Comm comm, MPI_Count count, MPI_Datatype dt, size_t *bytes);

/* The size of one element of dt into *size, zero included (a type of no
 * data, e.g. a contiguous type of 0 elements, is legal wherever the peer's
 * signature is empty too); cached as logp_args_bytes.  Returns 0 for
 * MPI_DATATYPE_NULL or a type the library cannot size. */
int logp_args_element_size(MPI_Datatype dt, size_t *size);

/* Nonzero if a predefined `op` on dt is the MPI library's to judge: a
 * predefined type the operator is not defined on (the library returns
 * MPI_ERR_OP on every rank before any traffic), a named type in no
 * operator's group (MPI_CHAR), a derived type, MPI_REPLACE or MPI_NO_OP.
 * A user operator: 0 (defined on whatever it is given). */
int logp_args_op_native(MPI_Op op, MPI_Datatype dt);

/* Whether op commutes into *commutative: 1 for every predefined operator
 * without a PMPI call (MPI standard, "Predefined Reduction Operations"),
 * else MPI_Op_commutative's answer.  Returns an MPI error code. */
int logp_args_commutative(MPI_Op op, int *commutative);

/* Nonzero if the predefined `op` is idempotent and exact on the named type
 * dt (MIN and MAX on integers, the bitwise and logical AND and OR: the
 * operator class LOGP_OPS_IDEMPOTENT, algo.h); 0 for user operators,
 * floating types and derived types.  Every rank of a reduction passes
 * the same op and dt, so every rank finds the same. */
int logp_args_idempotent(MPI_Op op, MPI_Datatype dt);

/* Nonzero if buf is a NULL buffer the MPI library rejects (MPICH's rule):
 * with a predefined datatype, or a derived one whose data starts at its
 * address (true lower bound 0).  NULL is MPI_BOTTOM in MPICH, legal with
 * a derived datatype of absolute addresses. */
int logp_args_null(const void *buf, MPI_Datatype dt);

#endif
