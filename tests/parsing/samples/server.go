package httpapi

import (
	"net/http"
)

// Server serves the HTTP API.
type Server struct {
	addr string
}

// Handler handles one route.
type Handler interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}

// NewServer builds a server listening on addr.
func NewServer(addr string) *Server {
	return &Server{addr: addr}
}

// Start begins listening.
func (s *Server) Start() error {
	return http.ListenAndServe(s.addr, nil)
}
