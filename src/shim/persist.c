/* The persistent collectives that run the shim's schedules (see persist.h). */
#include "persist.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LOGP_PERSIST_BUCKETS 256

static logp_persist_t *logp_persist_table[LOGP_PERSIST_BUCKETS];
static int logp_persist_entries; /* in the table */
static int logp_persist_running; /* started, not yet done */

/* A handle's bucket: its bytes (an int in MPICH, a pointer in Open MPI). */
static size_t logp_persist_bucket(MPI_Request handle)
{
    uint64_t h = 0;
    memcpy(&h, &handle, sizeof handle < sizeof h ? sizeof handle : sizeof h);
    h ^= h >> 29;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 56) % LOGP_PERSIST_BUCKETS;
}

logp_persist_t *logp_persist_add(MPI_Request handle, const void *owner, const void *task, size_t size)
{
    if (size > sizeof ((logp_persist_t *)0)->task)
        return NULL;
    logp_persist_t *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    p->handle = handle;
    p->active = MPI_REQUEST_NULL;
    p->owner = owner;
    p->size = size;
    memcpy(p->task, task, size);
    size_t b = logp_persist_bucket(handle);
    p->next = logp_persist_table[b];
    logp_persist_table[b] = p;
    logp_persist_entries++;
    return p;
}

logp_persist_t *logp_persist_find(MPI_Request handle)
{
    if (logp_persist_entries == 0 || handle == MPI_REQUEST_NULL)
        return NULL;
    for (logp_persist_t *p = logp_persist_table[logp_persist_bucket(handle)]; p; p = p->next)
        if (p->handle == handle)
            return p;
    return NULL;
}

void logp_persist_remove(logp_persist_t *p)
{
    for (logp_persist_t **at = &logp_persist_table[logp_persist_bucket(p->handle)]; *at; at = &(*at)->next)
        if (*at == p) {
            *at = p->next;
            logp_persist_entries--;
            free(p);
            return;
        }
}

void logp_persist_started(logp_persist_t *p, MPI_Request req)
{
    p->active = req;
    logp_persist_running++;
}

void logp_persist_done(logp_persist_t *p)
{
    p->active = MPI_REQUEST_NULL;
    logp_persist_running--;
}

int logp_persist_count(void)
{
    return logp_persist_entries;
}

int logp_persist_active(void)
{
    return logp_persist_running;
}

void logp_persist_orphan(const void *owner)
{
    if (logp_persist_entries == 0)
        return;
    for (int b = 0; b < LOGP_PERSIST_BUCKETS; b++)
        for (logp_persist_t *p = logp_persist_table[b]; p; p = p->next)
            if (p->owner == owner)
                p->owner = NULL;
}
