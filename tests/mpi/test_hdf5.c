/* Parallel HDF5 (a third-party library, Debian's build against MPICH) under
 * the shim: its collective metadata operations are MPI_Bcast of many
 * sizes, its collective I/O (ROMIO) runs MPI_Alltoall.  Three rounds:
 * create a file collectively, write a chunked dataset by hyperslabs
 * (one block per rank) and an attribute, close, reopen, read the next
 * rank's block and the attribute, check every value.  Prints
 * "h5: all correct" on rank 0; exit status 1 on any error.
 * Usage: test_hdf5 [FILE] */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = argc > 1 ? argv[1] : "test_hdf5.h5";
    hsize_t rows = 1000, cols = 37, dims[2] = {rows * size, cols};
    for (int round = 0; round < 3; round++) {
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
        H5Pset_all_coll_metadata_ops(fapl, 1);
        H5Pset_coll_metadata_write(fapl, 1);
        hid_t f = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        hsize_t chunk[2] = {rows, cols};
        H5Pset_chunk(dcpl, 2, chunk);
        char dname[32];
        snprintf(dname, sizeof dname, "data%d", round);
        hid_t d = H5Dcreate2(f, dname, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        double *buf = malloc(sizeof(double) * rows * cols);
        for (hsize_t i = 0; i < rows * cols; i++)
            buf[i] = rank * 1e6 + i + round;
        hsize_t start[2] = {rows * rank, 0}, count[2] = {rows, cols};
        hid_t fs = H5Dget_space(d);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        hid_t ms = H5Screate_simple(2, count, NULL);
        hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
        H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
        if (H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, buf) < 0) bad++;
        int attr = 42 + round;
        hid_t as = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(d, "answer", H5T_NATIVE_INT, as, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT, &attr);
        H5Aclose(a); H5Sclose(as);
        H5Pclose(dxpl); H5Sclose(ms); H5Sclose(fs); H5Dclose(d); H5Pclose(dcpl); H5Sclose(space); H5Fclose(f);
        /* reopen and read another rank's block */
        f = H5Fopen(name, H5F_ACC_RDONLY, fapl);
        d = H5Dopen2(f, dname, H5P_DEFAULT);
        int peer = (rank + 1) % size;
        start[0] = rows * peer;
        fs = H5Dget_space(d);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        ms = H5Screate_simple(2, count, NULL);
        dxpl = H5Pcreate(H5P_DATASET_XFER);
        H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
        if (H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, dxpl, buf) < 0) bad++;
        for (hsize_t i = 0; i < rows * cols; i++)
            if (buf[i] != peer * 1e6 + i + round) { bad++; break; }
        a = H5Aopen(d, "answer", H5P_DEFAULT);
        int got = 0;
        H5Aread(a, H5T_NATIVE_INT, &got);
        if (got != attr) bad++;
        H5Aclose(a); H5Pclose(dxpl); H5Sclose(ms); H5Sclose(fs); H5Dclose(d); H5Fclose(f); H5Pclose(fapl);
        free(buf);
    }
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "h5: %d errors\n" : "h5: all correct\n", all);
    MPI_Finalize();
    return all != 0;
}
