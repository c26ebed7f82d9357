-- The request bench/wrk.ts has wrk send: method, JSON body and credentials from its environment.
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
local auth = os.getenv("WRK_AUTH")
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end
