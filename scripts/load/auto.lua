-- wrk: POST an auto de infração per request, offenders taken in turn from
-- $PEOPLE (comma-separated CPFs), with the bearer token in $TOKEN. Each auto
-- names a plate of a pool of 5 000 made-up ones (as autos do), so the
-- table's plate index holds a few autos per plate, as in a real register.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
local people = {}
for cpf in string.gmatch(os.getenv("PEOPLE"), "[^,]+") do
  people[#people + 1] = cpf
end
local n = 0
local thread_tag = 0
setup = function(thread)
  thread_tag = thread_tag + 1
  thread:set("tag", thread_tag)
end
request = function()
  n = n + 1
  local who = people[(n % #people) + 1]
  local plate = string.format("BNC%04d", ((tag or 0) * 7919 + n) % 5000)
  local body = string.format(
    '{"infracao":"51-I-a","autuado":"%s","regulamento":"santa-maria-de-jetiba/taxi",' ..
    '"placa":"%s","cometida_em":"2026-11-28T10:00","local":"Praça Central","descricao":"teste de carga"}',
    who, plate)
  return wrk.format(nil, nil, nil, body)
end
