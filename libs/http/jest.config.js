export default { displayName: '@workcell/http', preset: '../../jest.preset.js' };
