# Sourced by scripts/bench-e2e.sh and scripts/bench-cli.sh: nginx as an unprivileged-port
# instance on 127.0.0.1 serving the end-to-end fixtures (bench/e2e/fixtures.cpp) over HTTPS, with
# its own config, certificate and logs in the caller's temporary directory.

# fixture_certificate <work>: a throw-away self-signed certificate for 127.0.0.1 in
# <work>/cert.pem (and its key in <work>/key.pem): every client trusts exactly this one.
fixture_certificate() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}

# fixture_nginx <nginx> <work> <port>: serves <work>/www on 127.0.0.1:<port>; sets nginx_pid,
# which the caller stops on exit.
fixture_nginx() {
  local nginx=$1 work=$2 port=$3
  # Run as root, nginx's workers become nobody, who must be able to read the fixtures.
  chmod a+x "$work"
  chmod -R a+rX "$work/www"
  mkdir -p "$work/temp"
  cat >"$work/nginx.conf" <<EOF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  server_tokens off;
  client_body_temp_path $work/temp/body;
  proxy_temp_path $work/temp/proxy;
  fastcgi_temp_path $work/temp/fastcgi;
  uwsgi_temp_path $work/temp/uwsgi;
  scgi_temp_path $work/temp/scgi;
  types {}
  default_type application/json;
  keepalive_timeout 60s;
  keepalive_requests 100000;
  # Pages share their path and differ by ?cursor=, as the API's do: the cursor names the file.
  map \$arg_cursor \$page {
    "" first;
    "~^[A-Za-z0-9_-]+\$" \$arg_cursor;
    default invalid;
  }
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;  # 1.22's default stops at 1.2
    root $work/www;
    # Clients asking for gzip get the .gz written beside each page: nginx spends no CPU on it.
    gzip_static on;
    location / { try_files \$uri/\$page.json =404; }
  }
}
EOF
  "$nginx" -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
  for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
  nginx_pid="$(cat "$work/nginx.pid")"
}
