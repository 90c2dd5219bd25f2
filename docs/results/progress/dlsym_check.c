#include <mpi.h>
#include <dlfcn.h>
#include <stdio.h>
int main(int c,char**v){MPI_Init(&c,&v);
 const char *n[]={"MPIR_Progress_hook_register","MPIR_Progress_hook_activate","MPID_Progress_test","MPIDI_progress_test","MPIX_Stream_create","MPIX_Stream_progress","MPIX_Async_start","MPIX_Grequest_start","MPIX_Grequest_class_create","QMPI_Register_tool_name","opal_progress_register","opal_progress","ompi_grequestx_start","MPIX_Bcast_init","MPI_Bcast_init","PMPI_Bcast_init","MPI_Ibcast_c",0};
 for(int i=0;n[i];i++){void*p=dlsym(RTLD_DEFAULT,n[i]);printf("%-30s %s\n",n[i],p?"FOUND":"not found");}
 MPI_Finalize();}
