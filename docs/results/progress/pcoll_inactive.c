/* MPICH 4.0.2 and persistent collective requests, without the shim:
 *   wait:    MPI_Wait (then MPI_Test) on an MPI_Alltoall_init request that
 *            was never started (MPI: an inactive request completes at once,
 *            empty status).  Prints "wait returned" if it does.
 *   testall: a loop of MPI_Testall over {started MPI_Allreduce_init and
 *            MPI_Bcast_init (count 0), MPI_Irecv, MPI_Isend}; "testall" and
 *            the return code and MPI_ERROR fields.  `testsome`, `testany`,
 *            `test` (one request at a time) and `waitall` do the same with
 *            those calls.
 * argv[1] = wait | testall | testsome | testany | test | waitall */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IONBF, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *mode = argc > 1 ? argv[1] : "wait";
    int rank, size, a[2] = {1, 2}, b[2], msg, got = -1, flag = 0, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Status st[5];
    if (strcmp(mode, "wait") == 0) {
        MPI_Request r;
        MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
        rc = MPI_Wait(&r, &st[0]);
        printf("rank %d: wait returned %d\n", rank, rc);
        rc = MPI_Test(&r, &flag, &st[0]);
        printf("rank %d: test returned %d flag %d\n", rank, rc, flag);
        MPI_Request_free(&r);
    } else {
        double s = 0, d = 0;
        MPI_Request r[5];
        MPI_Allreduce_init(&s, &d, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
        MPI_Bcast_init(a, 0, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
        MPI_Startall(2, r);
        r[2] = MPI_REQUEST_NULL;
        msg = rank;
        MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD, &r[3]);
        MPI_Isend(&msg, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &r[4]);
        for (int i = 0; i < 5; i++)
            st[i].MPI_ERROR = -1;
        if (strcmp(mode, "testall") == 0) {
            do
                rc = MPI_Testall(5, r, &flag, st);
            while (rc == MPI_SUCCESS && !flag);
        } else if (strcmp(mode, "testsome") == 0) {
            int k = 0, out, idx[5];
            while (rc == MPI_SUCCESS && k < 4) {
                rc = MPI_Testsome(5, r, &out, idx, st);
                if (out == MPI_UNDEFINED)
                    break;
                k += out;
            }
        } else if (strcmp(mode, "testany") == 0) {
            int k = 0, idx;
            while (rc == MPI_SUCCESS && k < 4) {
                rc = MPI_Testany(5, r, &idx, &flag, st);
                if (flag && idx == MPI_UNDEFINED)
                    break;
                k += flag;
            }
        } else if (strcmp(mode, "test") == 0) {
            for (int i = 0; i < 5 && rc == MPI_SUCCESS; i++)
                do
                    rc = MPI_Test(&r[i], &flag, &st[i]);
                while (rc == MPI_SUCCESS && !flag);
        } else {
            rc = MPI_Waitall(5, r, st);
        }
        printf("rank %d: %s returned %d (MPI_ERR_IN_STATUS = %d), got %d\n", rank, mode, rc, MPI_ERR_IN_STATUS, got);
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }
    MPI_Finalize();
    return 0;
}
