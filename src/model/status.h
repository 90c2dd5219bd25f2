/* The one status type of the pure layers (model, config, select): every
 * function there that succeeds or fails returns one of these; functions
 * that return a count or a truth value keep int. */
#ifndef LOGP_MODEL_STATUS_H
#define LOGP_MODEL_STATUS_H

typedef enum logp_status {
    LOGP_OK = 0,
    LOGP_ERR_ARG = -1,     /* an argument out of its documented range */
    LOGP_ERR_NOMEM = -2,   /* allocation failed */
    LOGP_ERR_DEADLOCK = -3, /* a schedule's operations cannot all complete */
    LOGP_ERR_BUDGET = -4,   /* more work than the caller allowed */
    LOGP_ERR_PARSE = -5,    /* the input text is malformed or its value out of range
                               (what is wrong in the caller's err buffer, where it passes one) */
    LOGP_ERR_IO = -6        /* a file cannot be read or written (the reason in err) */
} logp_status_t;

#endif
