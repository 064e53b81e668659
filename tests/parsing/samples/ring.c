#include <stdlib.h>

#define RING_CAPACITY 64

/* A fixed-size ring buffer. */
typedef struct {
    int data[RING_CAPACITY];
    size_t head;
} ring_t;

struct node {
    struct node *next;
};

/* Push a value; returns 0 when full. */
int ring_push(ring_t *ring, int value)
{
    ring->data[ring->head++ % RING_CAPACITY] = value;
    return 1;
}

static ring_t *ring_new(void) {
    return calloc(1, sizeof(ring_t));
}
