/* Tuning files: parsing and per-communicator resolution (pure C). */
#ifndef LOGP_CONFIG_CONFIG_H
#define LOGP_CONFIG_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "../model/algo.h"
#include "../model/learn.h"
#include "../model/params.h"
#include "../model/status.h"

#define LOGP_CONFIG_MAX_LINE 4096 /* longer lines are an error */
/* Sane ranges: beyond them a value is a typo, and the model's sums would
 * lose all precision or overflow (L = 1e308 s).  More sections than this
 * cost start-up time and memory on every rank for nothing. */
#define LOGP_CONFIG_MAX_SECTIONS 10000
#define LOGP_CONFIG_MAX_TIME 1.0         /* L, o, g: at most 1 s */
#define LOGP_CONFIG_MAX_PER_BYTE 1e-3    /* G, gamma: at most 1 ms/B */
#define LOGP_CONFIG_MAX_COUNT (1 << 20)  /* chain_k, ranks_per_node */
#define LOGP_CONFIG_MIN_SPEED 1e-3       /* speed from 0.001 to 1000 */

typedef enum logp_section_kind {
    LOGP_SECTION_DEFAULT,
    LOGP_SECTION_INTRA_NODE,
    LOGP_SECTION_INTER_NODE,
    LOGP_SECTION_SIZE,
    LOGP_SECTION_NAME,
    LOGP_SECTION_HOST
} logp_section_kind_t;

/* Keys a section may set (bits of logp_section_t.set). */
enum {
    LOGP_KEY_L = 1 << 0,
    LOGP_KEY_O = 1 << 1,
    LOGP_KEY_G_GAP = 1 << 2,
    LOGP_KEY_G_BYTE = 1 << 3,
    LOGP_KEY_GAMMA = 1 << 4,
    LOGP_KEY_BCAST = 1 << 5,
    LOGP_KEY_REDUCE = 1 << 6,
    LOGP_KEY_ALLTOALL = 1 << 7,
    LOGP_KEY_ALLREDUCE = 1 << 8,       /* the algorithm keys: LOGP_KEY_BCAST << coll */
    LOGP_KEY_ALLTOALLV = 1 << 9,
    LOGP_KEY_CHAIN_K = 1 << 10,
    LOGP_KEY_SPEED = 1 << 11,          /* [host] only */
    LOGP_KEY_RANKS_PER_NODE = 1 << 12, /* not in [host] */
    LOGP_KEY_RULE = 1 << 13,           /* rule = ..., any number per section */
    LOGP_KEY_CORRECTION = 1 << 14,     /* correction = ..., any number per section */
    LOGP_KEY_LEARN = 1 << 15,          /* learn = FILE, [default] only */
    LOGP_KEY_NETWORK = 1 << 16,        /* network = loggp | shared, not in [host] */
    LOGP_KEY_COPY = 1 << 17,           /* copy = per byte (logp_params_t.copy) */
    LOGP_KEY_FRESH = 1 << 18,          /* fresh = per byte (logp_params_t.fresh) */
    LOGP_KEY_BASIS = 1 << 19,          /* basis = 16 hex digits: what the section's corrections were measured
                                          against (the learned file writes it; select/confirm.h) */
    LOGP_KEY_EXPLORE = 1 << 20         /* explore = ..., any number per section */
};

/* Message-size rules and model corrections: what `rule` and `correction`
 * keys say (hand-written, or learned by auto's trials: PMPI_LOGP_LEARN).
 *   rule = COLL LO-HI [commutative|non-commutative] ALGO
 * decides the size classes (powers of two) whose middle, about 1.4 x 2^k
 * bytes (logp_learn_class_mid), lies in LO..HI (byte counts, units as
 * 64K); without a qualifier a reduce rule holds for both kinds of
 * operator.  `auto` as ALGO gives the class back to auto.
 *   correction = COLL ALGO BYTES FACTOR
 * multiplies ALGO's predicted time in BYTES's class by FACTOR (measured /
 * predicted, 0.001..1000); classes without one interpolate
 * (logp_learn_factor).  ALGO `auto` sets the default factor: that of
 * every algorithm without a correction of its own for COLL.
 *   explore = COLL LO-HI [commutative|non-commutative] ALGO[,ALGO...] [after N]
 * marks the classes' rules, given earlier in the same section, as not
 * settled: auto's trial there ended on its exploration budget with these
 * candidates untried (the learned file writes it), so the next run runs
 * the rule from its first call and tries them against it, after the
 * class's next N calls (what the budget still asked the class to pay;
 * the budget approved them then).  A later `rule` for a class clears its
 * mark. */
typedef struct logp_rules {
    unsigned char algo[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* [coll][class][commutative]; LOGP_ALGO_COUNT: no rule */
    uint32_t explore[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2];  /* the rule's untried candidates (bit per algorithm),
                                                                  0: settled; travels with algo */
    uint32_t after[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2];    /* explore's N: calls before they are tried */
    logp_learn_t learn;
} logp_rules_t;

typedef struct logp_section {
    logp_section_kind_t kind;
    int lo, hi;     /* [size lo-hi] */
    char name[128]; /* [name NAME], [host PATTERN] */
    int line;
    unsigned set;
    logp_params_t params;
    logp_algo_t algo[LOGP_COLL_COUNT];
    int chain_k;
    double speed;       /* [host]: relative speed, > 0 */
    int ranks_per_node; /* layout override, >= 1 */
    int shared;         /* network = shared (1) or loggp (0): model/net.h */
    logp_rules_t *rules; /* rule and correction keys; NULL if none (owned) */
    char *learn;         /* [default] learn = FILE: the learned file (owned), NULL if unset */
    uint64_t basis;      /* basis = ..., not 0 */
} logp_section_t;

typedef struct logp_config {
    logp_section_t *sections;
    int nsections;
} logp_config_t;

/* Parses tuning-file text; `path` names it in messages.  Returns LOGP_OK,
 * or LOGP_ERR_PARSE (LOGP_ERR_NOMEM if memory ran out) with "path:line:
 * what is wrong (what was expected)" in err; *cfg is then empty. */
logp_status_t logp_config_parse(logp_config_t *cfg, const char *text, size_t len, const char *path, char *err,
                                size_t errlen);

/* Reads and parses a file (errors as logp_config_parse; a file that cannot
 * be read, or is not a regular file, is LOGP_ERR_IO with "path: cannot
 * read: reason" or "path: not a regular file"). */
logp_status_t logp_config_load(logp_config_t *cfg, const char *path, char *err, size_t errlen);

/* Every problem of a file, for `pmpi-logp check` (the shim stops at the
 * first error and has no warnings). */
typedef struct logp_config_diag {
    int errors, warnings;
    int dropped;     /* lines that did not fit in text */
    char text[8192]; /* "path:line: ..." lines; warnings say "warning:" */
} logp_config_diag_t;

/* As logp_config_load, but reads on after an error (the line is skipped,
 * at most 1000 errors) and warns about implausible settings (a key set
 * twice in a section; L, o, g or G of 0); everything goes to *diag.
 * Returns LOGP_OK if there is no error (warnings allowed), else the first
 * error's status as logp_config_load's (*cfg empty). */
logp_status_t logp_config_lint(logp_config_t *cfg, const char *path, logp_config_diag_t *diag);

/* Releases a configuration; safe on a zeroed one. */
void logp_config_free(logp_config_t *cfg);

/* What every rank of a communicator knows alike. */
typedef struct logp_comm_facts {
    int size;
    const char *name; /* MPI_Comm_get_name, "" if none */
    int intra_node;   /* all ranks on one node */
} logp_comm_facts_t;

typedef struct logp_resolved {
    logp_params_t params;
    logp_algo_t algo[LOGP_COLL_COUNT]; /* LOGP_ALGO_AUTO unless a section says */
    int chain_k;
    int ranks_per_node; /* 0: the node layout comes from MPI */
    int shared;         /* the network shares the hosts' interfaces (logp_topo_t.shared);
                           built-in: between nodes (!facts->intra_node) yes, within one no */
    logp_rules_t rules; /* of every matching section, later ones overriding per entry */
    uint64_t basis;     /* of the last matching section that sets it; 0: none (hand-written corrections) */
    char matched[256]; /* "default, size 2-64, ..." */
} logp_resolved_t;

/* Settings of a communicator: the built-in defaults, then every section
 * that matches it in file order ([default] always; [intra-node] /
 * [inter-node] by facts->intra_node; [size A-B] if A <= size <= B;
 * [name N] if the name is N), later ones overriding earlier ones.
 * [host] sections never match a communicator (see logp_config_host_speed). */
void logp_config_resolve(const logp_config_t *cfg, const logp_comm_facts_t *facts, logp_resolved_t *out);

/* As logp_config_resolve, on top of what *out holds already: a second
 * file's sections (the learned file after the tuning file) override the
 * first's. */
void logp_config_resolve_more(const logp_config_t *cfg, const logp_comm_facts_t *facts, logp_resolved_t *out);

/* The learned file a tuning file names (`learn = FILE` in its last
 * [default] section that sets it; PMPI_LOGP_LEARN wins over it), or NULL. */
const char *logp_config_learn_path(const logp_config_t *cfg);

/* Empty rules: no algorithm rule, no correction. */
void logp_config_rules_init(logp_rules_t *r);

/* Relative speed of the node called `host` (MPI_Get_processor_name): the
 * `speed` of the last [host PATTERN] section whose shell pattern
 * (fnmatch(3)) matches it; 1 if none does. */
double logp_config_host_speed(const logp_config_t *cfg, const char *host);

#endif
