/* The arguments of a collective call (see args.h). */
#include "args.h"

#include <limits.h>

#include "../coll/buffer.h" /* logp_buffer_named */

/* The predefined datatypes most programs reduce and broadcast: their sizes
 * are asked once, not with a PMPI call per collective (a few hundred
 * nanoseconds; under SMPI, microseconds).  A benign race: every thread
 * writes the same value. */
static const MPI_Datatype logp_args_basic[] = {MPI_DOUBLE, MPI_INT, MPI_FLOAT, MPI_LONG, MPI_BYTE, MPI_CHAR,
                                               MPI_UNSIGNED, MPI_LONG_LONG, MPI_UNSIGNED_LONG, MPI_SHORT,
                                               MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_REAL, MPI_DOUBLE_INT};
static int logp_args_basic_size[sizeof logp_args_basic / sizeof logp_args_basic[0]];

static int logp_args_type_size(MPI_Datatype dt, int *size)
{
    int n = (int)(sizeof logp_args_basic / sizeof logp_args_basic[0]), i = 0;
    while (i < n && logp_args_basic[i] != dt)
        i++;
    if (i < n && logp_args_basic_size[i] > 0) {
        *size = logp_args_basic_size[i];
        return MPI_SUCCESS;
    }
    int rc = PMPI_Type_size(dt, size);
    if (rc == MPI_SUCCESS && i < n)
        logp_args_basic_size[i] = *size;
    return rc;
}

int logp_args_element_size(MPI_Datatype dt, size_t *size)
{
    int n = 0;
    if (dt == MPI_DATATYPE_NULL || logp_args_type_size(dt, &n) != MPI_SUCCESS || n < 0)
        return 0;
    *size = (size_t)n;
    return 1;
}

int logp_args_bytes(MPI_Comm comm, MPI_Count count, MPI_Datatype dt, size_t *bytes)
{
    size_t size = 0;
    if (comm == MPI_COMM_NULL || count <= 0 || count > INT_MAX || !logp_args_element_size(dt, &size) || size == 0)
        return 0;
    *bytes = (size_t)count * size;
    return *bytes <= (size_t)INT_MAX;
}

/* The predefined datatypes by the operators defined on them (MPI standard,
 * "Predefined Reduction Operations"). */
enum { LOGP_T_INT = 1, LOGP_T_FINT = 2, LOGP_T_FLOAT = 4, LOGP_T_LOGICAL = 8, LOGP_T_COMPLEX = 16, LOGP_T_BYTE = 32,
       LOGP_T_PAIR = 64 };

static unsigned logp_args_type_group(MPI_Datatype dt)
{
    static const struct {
        MPI_Datatype dt;
        unsigned group;
    } types[] = {
        /* the most reduced types first: a call scans up to its type */
        {MPI_DOUBLE, LOGP_T_FLOAT}, {MPI_INT, LOGP_T_INT}, {MPI_FLOAT, LOGP_T_FLOAT}, {MPI_LONG, LOGP_T_INT},
        {MPI_SHORT, LOGP_T_INT}, {MPI_UNSIGNED_SHORT, LOGP_T_INT}, {MPI_UNSIGNED, LOGP_T_INT},
        {MPI_UNSIGNED_LONG, LOGP_T_INT}, {MPI_LONG_LONG, LOGP_T_INT},
        {MPI_UNSIGNED_LONG_LONG, LOGP_T_INT}, {MPI_SIGNED_CHAR, LOGP_T_INT}, {MPI_UNSIGNED_CHAR, LOGP_T_INT},
        {MPI_INT8_T, LOGP_T_INT}, {MPI_INT16_T, LOGP_T_INT}, {MPI_INT32_T, LOGP_T_INT}, {MPI_INT64_T, LOGP_T_INT},
        {MPI_UINT8_T, LOGP_T_INT}, {MPI_UINT16_T, LOGP_T_INT}, {MPI_UINT32_T, LOGP_T_INT}, {MPI_UINT64_T, LOGP_T_INT},
        {MPI_INTEGER, LOGP_T_FINT}, {MPI_LONG_DOUBLE, LOGP_T_FLOAT}, {MPI_REAL, LOGP_T_FLOAT},
        {MPI_DOUBLE_PRECISION, LOGP_T_FLOAT},
        {MPI_LOGICAL, LOGP_T_LOGICAL}, {MPI_C_BOOL, LOGP_T_LOGICAL}, {MPI_COMPLEX, LOGP_T_COMPLEX},
        {MPI_C_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_C_FLOAT_COMPLEX, LOGP_T_COMPLEX}, {MPI_BYTE, LOGP_T_BYTE},
        {MPI_FLOAT_INT, LOGP_T_PAIR}, {MPI_DOUBLE_INT, LOGP_T_PAIR}, {MPI_LONG_INT, LOGP_T_PAIR},
        {MPI_2INT, LOGP_T_PAIR}, {MPI_SHORT_INT, LOGP_T_PAIR}, {MPI_LONG_DOUBLE_INT, LOGP_T_PAIR},
        /* the standard's other named types in those groups; the optional ones where mpi.h has them (Open
           MPI 4.1 lacks MPI_INTEGER16; an unsupported one may be MPI_DATATYPE_NULL, which never gets here) */
        {MPI_AINT, LOGP_T_FINT}, {MPI_OFFSET, LOGP_T_FINT}, {MPI_COUNT, LOGP_T_FINT},
        {MPI_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_C_COMPLEX, LOGP_T_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_CXX_BOOL, LOGP_T_LOGICAL}, {MPI_2REAL, LOGP_T_PAIR},
        {MPI_2DOUBLE_PRECISION, LOGP_T_PAIR}, {MPI_2INTEGER, LOGP_T_PAIR},
#ifdef MPI_INTEGER1
        {MPI_INTEGER1, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER2
        {MPI_INTEGER2, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER4
        {MPI_INTEGER4, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER8
        {MPI_INTEGER8, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER16
        {MPI_INTEGER16, LOGP_T_FINT},
#endif
#ifdef MPI_REAL4
        {MPI_REAL4, LOGP_T_FLOAT},
#endif
#ifdef MPI_REAL8
        {MPI_REAL8, LOGP_T_FLOAT},
#endif
#ifdef MPI_REAL16
        {MPI_REAL16, LOGP_T_FLOAT},
#endif
#ifdef MPI_COMPLEX8
        {MPI_COMPLEX8, LOGP_T_COMPLEX},
#endif
#ifdef MPI_COMPLEX16
        {MPI_COMPLEX16, LOGP_T_COMPLEX},
#endif
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].dt == dt)
            return types[i].group;
    return 0; /* derived or not listed: no check */
}

/* The predefined reduction operators, the groups of types each is defined
 * on (the one list; every one commutes, MPI standard 5.9.2) and those of
 * them where it is idempotent and exact, op(a, a) = a up to the logical
 * operators' 0 / 1 (MIN and MAX on integers, the bitwise and logical AND
 * and OR): not on floating types, where NaN and signed zeros make MIN and
 * MAX depend on the order (MPICH: a < b ? a : b). */
static const struct {
    MPI_Op op;
    unsigned groups, idempotent;
} logp_args_ops[] = {
    {MPI_SUM, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT | LOGP_T_COMPLEX, 0},
    {MPI_MAX, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT, LOGP_T_INT | LOGP_T_FINT},
    {MPI_MIN, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT, LOGP_T_INT | LOGP_T_FINT},
    {MPI_PROD, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT | LOGP_T_COMPLEX, 0},
    {MPI_LAND, LOGP_T_INT | LOGP_T_LOGICAL, LOGP_T_INT | LOGP_T_LOGICAL},
    {MPI_LOR, LOGP_T_INT | LOGP_T_LOGICAL, LOGP_T_INT | LOGP_T_LOGICAL},
    {MPI_LXOR, LOGP_T_INT | LOGP_T_LOGICAL, 0},
    {MPI_BAND, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE},
    {MPI_BOR, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE},
    {MPI_BXOR, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE, 0},
    {MPI_MAXLOC, LOGP_T_PAIR, 0}, {MPI_MINLOC, LOGP_T_PAIR, 0},
};
#define LOGP_ARGS_NOPS (sizeof logp_args_ops / sizeof logp_args_ops[0])

/* Index of a predefined reduction operator in logp_args_ops, or
 * LOGP_ARGS_NOPS for any other (a user operator). */
static size_t logp_args_op_index(MPI_Op op)
{
    size_t i = 0;
    while (i < LOGP_ARGS_NOPS && logp_args_ops[i].op != op)
        i++;
    return i;
}

int logp_args_op_native(MPI_Op op, MPI_Datatype dt)
{
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return 1; /* predefined for one-sided accumulates: the library judges them here */
    size_t i = logp_args_op_index(op);
    if (i == LOGP_ARGS_NOPS)
        return 0;
    unsigned group = logp_args_type_group(dt);
    if (group)
        return (logp_args_ops[i].groups & group) == 0;
    return 1; /* a derived type, or a predefined one not listed (MPI_CHAR, MPI_WCHAR, ..) */
}

int logp_args_commutative(MPI_Op op, int *commutative)
{
    if (logp_args_op_index(op) < LOGP_ARGS_NOPS) {
        *commutative = 1;
        return MPI_SUCCESS;
    }
    return PMPI_Op_commutative(op, commutative);
}

int logp_args_idempotent(MPI_Op op, MPI_Datatype dt)
{
    size_t i = logp_args_op_index(op);
    return i < LOGP_ARGS_NOPS && (logp_args_ops[i].idempotent & logp_args_type_group(dt)) != 0;
}

int logp_args_null(const void *buf, MPI_Datatype dt)
{
    MPI_Aint tlb = 0, textent;
    if (buf != NULL)
        return 0;
    return logp_buffer_named(dt) || PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS || tlb == 0;
}
