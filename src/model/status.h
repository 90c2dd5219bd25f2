/* The one status type of the pure layers (model, config, select). */
#ifndef LOGP_MODEL_STATUS_H
#define LOGP_MODEL_STATUS_H

typedef enum logp_status {
    LOGP_OK = 0,
    LOGP_ERR_ARG = -1,     /* an argument out of its documented range */
    LOGP_ERR_NOMEM = -2,   /* allocation failed */
    LOGP_ERR_DEADLOCK = -3, /* a schedule's operations cannot all complete */
    LOGP_ERR_BUDGET = -4    /* more work than the caller allowed */
} logp_status_t;

#endif
