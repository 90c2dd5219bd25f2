#include <mpi.h>
#include <stdio.h>
int main(void){int p,n=-1,ns=-1;MPI_T_init_thread(MPI_THREAD_SINGLE,&p);int rc=MPI_T_event_get_num(&n);MPI_T_source_get_num(&ns);printf("MPI_T_event_get_num rc=%d num_events=%d num_sources=%d\n",rc,n,ns);
for(int i=0;i<n&&i<20;i++){char name[256],desc[256];int nl=256,dl=256,v,bind,ne=0;MPI_Datatype dt[8];MPI_Aint disp[8];MPI_T_enum en;MPI_Info info;
 if(MPI_T_event_get_info(i,name,&nl,&v,NULL,NULL,&ne,&en,&info,desc,&dl,&bind)==MPI_SUCCESS)printf(" event %d: %s\n",i,name);}
MPI_T_finalize();}
